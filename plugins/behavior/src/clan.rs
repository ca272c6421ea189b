//! Behavior's copy of the clans' relations, kept up with the mission's
//! clans ([`ClanRelations`] is the world crate's: the loader reads it too).

use bevy::prelude::*;
use iron3d_world::mission::MissionClans;
pub use iron3d_world::mission::{ClanRelations, Relation};

/// Takes the relations of the mission's clans when they are published.
pub(crate) fn read_clans(clans: Option<Res<MissionClans>>, mut relations: ResMut<ClanRelations>) {
    if let Some(clans) = clans.filter(|c| c.is_changed()) {
        *relations = ClanRelations::from_clans(&clans.0);
    }
}
