//! The economy's part of the mission load: the behaviour profiles of
//! `behpsp.res` by role and the building categories' Type words (the
//! resources phase), then each placed building and transport joining the
//! economy with its profile as the mission starts.

use crate::production::Production;
use crate::research::{ClanTree, ClanTrees, Research, Trees};
use crate::role::Role;
use crate::stock::{Building, Stock};
use bevy::prelude::*;
use iron3d_formats::config::profile::{ARCHIVE, BuildingProfile, VarProfile};
use iron3d_formats::research::ResearchTree;
use iron3d_formats::tma::{self, PropertyValue};
use iron3d_world::mission::{
    ErrorChain, LoadError, MissionObject, ObjectKind, PropertyBag, PrototypeKey, ReadContext,
    UnitPartInfo,
};
use std::collections::BTreeMap;
use std::sync::Arc;

/// What the economy read for the mission being loaded.
#[derive(Resource, Debug, Default, Clone)]
pub struct EconomyData {
    /// Each role's profile (a role whose entry the install lacks takes no
    /// part in the economy).
    pub profiles: BTreeMap<Role, BuildingProfile>,
    /// Upper-cased unit path -> the Type word of its `BuildDat.lst`
    /// category.
    pub types: BTreeMap<Vec<u8>, u32>,
    /// The research tree each clan's record names, by identity word.
    pub trees: BTreeMap<u32, Arc<ResearchTree>>,
}

/// The economy's reader (resources phase): publishes [`EconomyData`]. A
/// profile that does not read, or holds a negative or non-number figure,
/// fails the load naming the archive and the entry; an install without
/// the archive has no economy.
pub(crate) fn read_economy(world: &mut World, load: &ReadContext) -> Result<(), LoadError> {
    let mut data = EconomyData::default();
    for section in load.build_dat().map_or(&[][..], |d| &d.sections[..]) {
        for unit in &section.paths {
            let path = unit.path.as_bytes().to_ascii_uppercase();
            data.types.insert(path, section.category.mask());
        }
    }
    let chain = |archive: String, entry: Option<String>, cause: String| -> LoadError {
        ErrorChain {
            phase: load.phase(),
            mission: load.mission_name().to_owned(),
            object: None,
            prototype: None,
            archive: Some(archive),
            entry,
            cause,
        }
        .into()
    };
    for role in Role::ALL {
        let entry = role.profile_entry();
        let fail = |cause: String| chain(format!("'{ARCHIVE}'"), Some(format!("'{entry}'")), cause);
        let found = load
            .source()
            .entry(ARCHIVE.as_bytes(), entry.as_bytes())
            .map_err(|e| fail(e.to_string()))?;
        let Some(found) = found else { continue };
        let profile = found
            .parsed(0, VarProfile::parse)
            .and_then(|p| p.building())
            .map_err(|e| fail(e.to_string()))?;
        data.profiles.insert(role, profile);
    }
    let clans = load.tma().map_or(&[][..], |t| &t.clans[..]);
    for (identity, clan) in clans.iter().enumerate() {
        if clan.trf.is_empty() {
            continue;
        }
        let path = String::from_utf8_lossy(&clan.trf).into_owned();
        let name = String::from_utf8_lossy(&clan.name);
        let fail =
            |cause: String| chain(format!("'{path}'"), None, format!("clan '{name}': {cause}"));
        let found = load
            .source()
            .read_legacy(&clan.trf)
            .map_err(|e| fail(e.to_string()))?
            .ok_or_else(|| fail("the research tree is missing".into()))?;
        let tree = found
            .parsed(0, ResearchTree::parse)
            .map_err(|e| fail(e.to_string()))?;
        data.trees.insert(identity as u32, tree);
    }
    world.insert_resource(data);
    Ok(())
}

/// The placed objects as the mission starts.
type Placed<'a> = (
    Entity,
    &'a ObjectKind,
    &'a PrototypeKey,
    &'a PropertyBag,
    Option<&'a Children>,
);

/// Every placed building whose Type has a role, and every transport,
/// joins the economy with its role's profile, its stock charged and
/// holding no ore.
pub(crate) fn join_economy(
    mut commands: Commands,
    data: Option<Res<EconomyData>>,
    objects: Query<Placed, With<MissionObject>>,
    parts: Query<&UnitPartInfo>,
) {
    let Some(data) = data else { return };
    let states = data
        .trees
        .iter()
        .map(|(c, t)| (*c, ClanTree::of(t)))
        .collect();
    commands.insert_resource(ClanTrees(states));
    commands.insert_resource(Trees(data.trees.clone()));
    for (entity, kind, key, bag, children) in &objects {
        let role = match kind.kind() {
            // Its Type word's role, else its unit file's category's (a
            // Type of the building class alone names none).
            Some(tma::ObjectKind::Building) => bag
                .int("Type")
                .and_then(|t| Role::of_type(t as u32))
                .or_else(|| {
                    let category = data.types.get(&key.0.to_ascii_uppercase())?;
                    Role::of_type(*category)
                }),
            Some(tma::ObjectKind::Unit) => Role::of_unit_path(&key.0),
            _ => None,
        };
        let Some((role, profile)) = role.and_then(|r| Some((r, *data.profiles.get(&r)?))) else {
            continue;
        };
        let building = Building::new(role, profile);
        let most = number(bag, "MaximumOre")
            .filter(|m| *m > 0.0)
            .unwrap_or(role.ore_most());
        let mut placed = commands.entity(entity);
        placed.insert((building, Stock::charged(&building, most)));
        match role {
            Role::Institute => {
                placed.insert(Research::of(bag));
            }
            Role::Plant => {
                // Its model's key: its first part's (the placed key for
                // an object placed by one).
                let model = children
                    .into_iter()
                    .flatten()
                    .filter_map(|c| parts.get(*c).ok())
                    .find(|p| p.index == 0)
                    .map_or(&key.0, |p| &p.key);
                placed.insert(Production::of(bag, model));
            }
            _ => {}
        }
    }
}

/// The first property `name` as a number, integer or float.
fn number(bag: &PropertyBag, name: &str) -> Option<f32> {
    match bag.get(name)? {
        PropertyValue::Float { value, .. } => Some(value),
        PropertyValue::Int { value, .. } => Some(value as f32),
        _ => None,
    }
}
