//! The tick table is read from one place: a probe system in every step of
//! [`SimStep`] records when it ran during one fixed step, and the order
//! seen is both `SimStep::ALL` and the table of the book's architecture
//! chapter (between its `tick-table` markers).

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use iron3d_schedules::{SimStep, SpinePlugin, deny_simulation_ambiguities};
use std::time::Duration;

/// The steps' names in the order their probes ran.
#[derive(Resource, Default)]
struct Ran(Vec<String>);

/// The order one fixed step runs the steps in.
fn run_order() -> Vec<String> {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SpinePlugin::default()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            40,
        )))
        .init_resource::<Ran>();
    deny_simulation_ambiguities(&mut app);
    for (step, _) in SimStep::ALL {
        let name = format!("{step:?}");
        app.add_systems(
            FixedUpdate,
            (move |mut ran: ResMut<Ran>| ran.0.push(name.clone())).in_set(step),
        );
    }
    while app.world().resource::<Ran>().0.is_empty() {
        app.update();
    }
    app.world().resource::<Ran>().0.clone()
}

/// The step and phase columns of the documented table.
fn documented_table(chapter: &str) -> Vec<(String, String)> {
    let start = chapter
        .find("<!-- tick-table -->")
        .expect("the chapter marks the start of its tick table");
    let end = chapter
        .find("<!-- /tick-table -->")
        .expect("the chapter marks the end of its tick table");
    chapter[start..end]
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|row| {
            let cells: Vec<&str> = row.split('|').map(|c| c.trim().trim_matches('`')).collect();
            (cells[1].to_string(), cells[2].to_string())
        })
        .collect()
}

#[test]
fn one_fixed_step_runs_the_steps_in_the_tables_order() {
    let ran = run_order();
    let declared: Vec<String> = SimStep::ALL.iter().map(|(s, _)| format!("{s:?}")).collect();
    println!("tick order: {}", ran.join(" -> "));
    assert_eq!(ran, declared, "the chain runs as SimStep::ALL lists it");

    let chapter = include_str!("../../docs/book/src/architecture.md");
    let documented: Vec<(String, String)> = SimStep::ALL
        .iter()
        .map(|(s, p)| (format!("{s:?}"), format!("{p:?}")))
        .collect();
    assert_eq!(
        documented_table(chapter),
        documented,
        "docs/book/src/architecture.md's tick table is the one the code runs"
    );
}
