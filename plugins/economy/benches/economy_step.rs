//! The economy's distribution step for 8 clans of 60 buildings each:
//! every clan busy (its mines digging, its transports
//! carrying, its factories and research centres short of ore and power)
//! against the same 480 buildings idle (charged, full, wanting nothing),
//! in the same run.
//!
//! `cargo bench -p iron3d-economy --bench economy_step`

use bevy::math::Vec2;
use criterion::{Criterion, criterion_group, criterion_main};
use iron3d_economy::distribute::{Distributor, Member, step_clan};
use iron3d_economy::{Building, Role, Stock};
use iron3d_formats::config::profile::BuildingProfile;
use std::hint::black_box;

/// Each clan's buildings: role, how many, and the profile's figures
/// (power out, used, ore used, held, on, off).
const CLAN: [(Role, usize, [f32; 6]); 7] = [
    (Role::Generator, 5, [10.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    (Role::Mine, 10, [0.0, 1.0, 0.0, 1000.0, 0.0, 1.0]),
    (Role::Storage, 5, [0.0, 1.0, 0.0, 4000.0, 20.0, 1.0]),
    (Role::Transport, 10, [0.0, 0.0, 0.0, 1000.0, 100.0, 100.0]),
    (Role::Plant, 10, [0.0, 4.0, 5.0, 0.0, 100.0, 0.0]),
    (Role::Institute, 10, [0.0, 3.0, 1.0, 0.0, 100.0, 0.0]),
    (Role::Tower, 10, [0.0, 10.0, 0.0, 0.0, 0.0, 0.0]),
];

/// 8 clans of 60 buildings on a 40 m grid; `busy` ones start empty and
/// drained, with their consumers asking for ore.
fn clans(busy: bool) -> Vec<Vec<Member>> {
    (0..8)
        .map(|clan| {
            let roles = CLAN
                .iter()
                .flat_map(|(r, n, f)| std::iter::repeat_n((*r, *f), *n));
            roles
                .enumerate()
                .map(|(i, (role, figures))| {
                    let building = Building::new(role, BuildingProfile::from_figures(figures));
                    let mut stock = Stock::charged(&building, role.ore_most());
                    if busy {
                        stock.charge = 0.0;
                        stock.ore_wanted = figures[2] * 10.0;
                        stock.usage = figures[1];
                    } else {
                        stock.ore = stock.ore_most;
                    }
                    Member {
                        id: clan * 100 + i as u32,
                        building,
                        stock,
                        at: Vec2::new((i % 8) as f32 * 40.0, (i / 8) as f32 * 40.0),
                    }
                })
                .collect()
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("economy_step");
    for (name, busy) in [("clans_8x60_busy", true), ("clans_8x60_idle", false)] {
        let start = clans(busy);
        group.bench_function(name, |b| {
            b.iter_batched_ref(
                || (start.clone(), vec![Distributor::default(); 8]),
                |(clans, distributors)| {
                    for (members, d) in clans.iter_mut().zip(distributors.iter_mut()) {
                        step_clan(black_box(members), 0.2, d);
                    }
                },
                criterion::BatchSize::SmallInput,
            );
        });
    }
    group.finish();
}

criterion_group!(economy, bench);
criterion_main!(economy);
