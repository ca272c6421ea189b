//! Batch materials over time: one shared [`LegacyMaterial`] per (WEAR
//! table, material row, lightmap row, UV1 presence), its stage-0 texture
//! taken from the MAT0 phase active at the game time, and rebuilt when its
//! WEAR table or a texture it uses is hot-reloaded.
//!
//! Material time is the game clock in milliseconds (one MAT0 key tick per
//! millisecond, our reading, docs/facts.md): a paused clock freezes every
//! animation. The active phase is the `from` phase of
//! [`Mat0::select_phase`] on animation block 0; the random-offset mode's
//! seed is derived from the material entry name, so every instance of a
//! material shares one phase.

use crate::draw::DrawItemSource;
use crate::legacy::MaterialInputs;
use crate::material::{FLAG_POINT_DISC, FLAG_POINT_LIT, LegacyMaterial};
use bevy::prelude::*;
use iron3d_assets::material::WearMaterials;
use iron3d_formats::mat0::Mat0;
use iron3d_schedules::GameClock;
use std::collections::HashMap;

/// What a shared batch material is made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BindingKey {
    pub wear: Option<AssetId<WearMaterials>>,
    /// WEAR material row.
    pub row: usize,
    /// WEAR lightmap row of the batch (`None` for 0xFF).
    pub lightmap: Option<u8>,
    /// The batch's mesh has UV1.
    pub uv1: bool,
    /// The batch word's `0x800`: point lights also drawn as discs.
    pub light_discs: bool,
}

/// A shared batch material and the phase it shows.
#[derive(Debug, Clone)]
pub struct MaterialBinding {
    pub key: BindingKey,
    pub wear: Option<Handle<WearMaterials>>,
    pub material: Handle<LegacyMaterial>,
    /// The MAT0 phase on stage 0.
    pub phase: usize,
}

/// Every shared batch material of the scene.
#[derive(Resource, Debug, Default)]
pub struct MaterialBindings {
    bindings: Vec<MaterialBinding>,
    by_key: HashMap<BindingKey, usize>,
}

/// The material entry name as a seed (FNV-1a): the random-offset mode
/// gives every material its own, stable offset.
fn name_seed(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// The MAT0 phase shown at material time `millis` (phase 0 without
/// animation or when the block cannot be sampled).
pub fn active_phase(mat0: &Mat0, millis: u32, seed: u64) -> usize {
    mat0.select_phase(0, millis, seed).map_or(0, |s| s.from)
}

/// The phase of the `Material.lib` entry `name` (its MAT0 `mat0`) at
/// material time `millis`: every user of one material shows one phase.
pub fn material_phase(mat0: &Mat0, name: &str, millis: u32) -> usize {
    active_phase(mat0, millis, name_seed(name))
}

/// Material time of the game clock.
// STAND-IN: one MAT0 key tick per ms of game time (tome V gives no unit);
// settled by timing a retail animated material's period.
pub fn material_time(clock: &GameClock) -> u32 {
    (clock.elapsed().as_millis() % (u32::MAX as u128 + 1)) as u32
}

/// The material of `key` showing `phase`, and that phase's asset paths.
/// A batch's material: its WEAR row in `phase` (plain grey without one),
/// lit by the point lights (and their discs with the batch word's
/// `0x800`).
fn make_material(wear: Option<&WearMaterials>, key: &BindingKey, phase: usize) -> LegacyMaterial {
    let mut material = match wear.and_then(|w| w.materials.get(key.row)) {
        None => {
            let plain = Mat0::new(1, 0);
            let state = MaterialInputs::of_batch(&plain, false, key.uv1, false).state();
            LegacyMaterial::new(state, None, None, 1.0)
        }
        Some(row) => {
            let texture = row.textures.get(phase).cloned().flatten();
            let lightmap = key
                .lightmap
                .and_then(|i| wear.and_then(|w| w.lightmap(i).1.cloned()));
            let inputs =
                MaterialInputs::of_batch(&row.mat0, texture.is_some(), key.uv1, lightmap.is_some());
            LegacyMaterial::new(inputs.state(), texture, lightmap, row.mat0.alpha())
        }
    };
    material.uniform.flags |= FLAG_POINT_LIT;
    if key.light_discs {
        material.uniform.flags |= FLAG_POINT_DISC;
    }
    material
}

/// The phase of the binding's material at `millis`.
fn phase_at(wear: Option<&WearMaterials>, row: usize, millis: u32) -> usize {
    wear.and_then(|w| w.materials.get(row))
        .map_or(0, |r| material_phase(&r.mat0, &r.entry.name, millis))
}

impl MaterialBinding {
    /// A new shared material for `key`, at the current game time.
    pub fn new(world: &mut World, key: BindingKey, wear: Option<Handle<WearMaterials>>) -> Self {
        let millis = world.get_resource::<GameClock>().map_or(0, material_time);
        let wears = world.resource::<Assets<WearMaterials>>();
        let table = wear.as_ref().and_then(|h| wears.get(h));
        let phase = phase_at(table, key.row, millis);
        let material = make_material(table, &key, phase);
        let material = world.resource_mut::<Assets<LegacyMaterial>>().add(material);
        Self {
            key,
            wear,
            material,
            phase,
        }
    }

    /// The draw-item fields this binding decides (the placement fields
    /// are the caller's).
    pub fn draw_item(&self, world: &World) -> DrawItemSource {
        let material = world
            .resource::<Assets<LegacyMaterial>>()
            .get(&self.material)
            .expect("a bound material exists");
        draw_item(material, self.phase, world.resource::<AssetServer>())
    }
}

/// The draw-item fields of `material` showing `phase`.
pub(crate) fn draw_item(
    material: &LegacyMaterial,
    phase: usize,
    server: &AssetServer,
) -> DrawItemSource {
    let path = |h: &Option<Handle<Image>>| {
        h.as_ref()
            .and_then(|h| server.get_path(h.id()))
            .map(|p| p.to_string())
    };
    DrawItemSource {
        object: None,
        node: None,
        slot: None,
        batch: None,
        material_phase: phase,
        texture: path(&material.texture),
        lightmap: path(&material.lightmap),
        render_phase: material.render_phase(),
        pipeline_key: material.state.pipeline_key(),
        insertion: 0,
    }
}

/// Copies the fields a material decides (phase, textures, render phase,
/// pipeline key) from `item` into `source`, keeping its placement.
pub(crate) fn set_material_fields(source: &mut DrawItemSource, item: &DrawItemSource) {
    source.material_phase = item.material_phase;
    source.texture.clone_from(&item.texture);
    source.lightmap.clone_from(&item.lightmap);
    source.render_phase = item.render_phase;
    source.pipeline_key = item.pipeline_key;
}

impl MaterialBindings {
    /// The shared material of WEAR row `row` with lightmap `lightmap` (made
    /// on first use).
    pub fn bind(
        &mut self,
        world: &mut World,
        wear: Option<&Handle<WearMaterials>>,
        row: usize,
        lightmap: Option<u8>,
        uv1: bool,
        light_discs: bool,
    ) -> MaterialBinding {
        let key = BindingKey {
            wear: wear.map(|h| h.id()),
            row,
            lightmap,
            uv1,
            light_discs,
        };
        if let Some(&i) = self.by_key.get(&key) {
            return self.bindings[i].clone();
        }
        let binding = MaterialBinding::new(world, key, wear.cloned());
        self.by_key.insert(key, self.bindings.len());
        self.bindings.push(binding.clone());
        binding
    }

    /// Every binding, in creation order.
    pub fn iter(&self) -> impl Iterator<Item = &MaterialBinding> {
        self.bindings.iter()
    }
}

/// Rebuilds the materials of the bindings `changed` (indices) and updates
/// the draw items using them.
fn refresh(
    changed: &[usize],
    bindings: &MaterialBindings,
    wears: &Assets<WearMaterials>,
    materials: &mut Assets<LegacyMaterial>,
    server: &AssetServer,
    draws: &mut Query<(&MeshMaterial3d<LegacyMaterial>, &mut DrawItemSource)>,
) {
    if changed.is_empty() {
        return;
    }
    let mut updated = HashMap::new();
    for &i in changed {
        let b = &bindings.bindings[i];
        let table = b.wear.as_ref().and_then(|h| wears.get(h));
        let material = make_material(table, &b.key, b.phase);
        updated.insert(b.material.id(), draw_item(&material, b.phase, server));
        if let Some(mut slot) = materials.get_mut(&b.material) {
            *slot = material;
        }
    }
    for (handle, mut source) in draws.iter_mut() {
        if let Some(item) = updated.get(&handle.0.id()) {
            set_material_fields(&mut source, item);
        }
    }
}

/// Switches every animated material to the phase of the game time.
pub fn animate_phases(
    clock: Res<GameClock>,
    wears: Res<Assets<WearMaterials>>,
    server: Res<AssetServer>,
    mut bindings: ResMut<MaterialBindings>,
    mut materials: ResMut<Assets<LegacyMaterial>>,
    mut draws: Query<(&MeshMaterial3d<LegacyMaterial>, &mut DrawItemSource)>,
) {
    let millis = material_time(&clock);
    let mut changed = Vec::new();
    for (i, b) in bindings.bindings.iter_mut().enumerate() {
        let table = b.wear.as_ref().and_then(|h| wears.get(h));
        let phase = phase_at(table, b.key.row, millis);
        if phase != b.phase {
            b.phase = phase;
            changed.push(i);
        }
    }
    refresh(
        &changed,
        &bindings,
        &wears,
        &mut materials,
        &server,
        &mut draws,
    );
}

/// The assets (re)loaded or modified since the last read.
fn changed_ids<A: Asset>(events: &mut MessageReader<AssetEvent<A>>) -> Vec<AssetId<A>> {
    events
        .read()
        .filter_map(|e| match e {
            AssetEvent::Modified { id } | AssetEvent::LoadedWithDependencies { id } => Some(*id),
            _ => None,
        })
        .collect()
}

/// Hot reload: a modified WEAR table rebuilds its materials; a modified
/// texture re-binds the materials showing it.
pub fn reload_materials(
    mut wear_events: MessageReader<AssetEvent<WearMaterials>>,
    mut image_events: MessageReader<AssetEvent<Image>>,
    wears: Res<Assets<WearMaterials>>,
    server: Res<AssetServer>,
    bindings: Res<MaterialBindings>,
    mut materials: ResMut<Assets<LegacyMaterial>>,
    mut draws: Query<(&MeshMaterial3d<LegacyMaterial>, &mut DrawItemSource)>,
) {
    let modified_wears = changed_ids(&mut wear_events);
    let modified_images = changed_ids(&mut image_events);
    if modified_wears.is_empty() && modified_images.is_empty() {
        return;
    }
    let uses_image = |m: Option<&LegacyMaterial>| {
        m.is_some_and(|m| {
            [&m.texture, &m.lightmap]
                .into_iter()
                .flatten()
                .any(|h| modified_images.contains(&h.id()))
        })
    };
    let changed: Vec<usize> = bindings
        .bindings
        .iter()
        .enumerate()
        .filter(|(_, b)| {
            b.key.wear.is_some_and(|w| modified_wears.contains(&w))
                || uses_image(materials.get(&b.material))
        })
        .map(|(i, _)| i)
        .collect();
    refresh(
        &changed,
        &bindings,
        &wears,
        &mut materials,
        &server,
        &mut draws,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::mat0::{AnimBlock, AnimKey, Phase};

    fn blinking() -> Mat0 {
        let mut m = Mat0::new(4, 0);
        m.phases = vec![
            Phase::new([0; 18], b"ON").unwrap(),
            Phase::new([0; 18], b"OFF").unwrap(),
        ];
        m.animations.push(AnimBlock {
            header: 0,
            keys: [(0, 0), (1, 400), (0, 800)]
                .map(|(k0, k1)| AnimKey { k0, k1, k2: 0 })
                .to_vec(),
        });
        m
    }

    #[test]
    fn the_active_phase_follows_material_time_and_loops() {
        let m = blinking();
        assert_eq!(active_phase(&m, 0, 0), 0);
        assert_eq!(active_phase(&m, 399, 0), 0);
        assert_eq!(active_phase(&m, 400, 0), 1);
        assert_eq!(active_phase(&m, 799, 0), 1);
        assert_eq!(active_phase(&m, 800, 0), 0, "loops at the last key");
        assert_eq!(active_phase(&m, 1200, 0), 1);
    }

    #[test]
    fn a_still_material_shows_phase_zero() {
        let mut m = blinking();
        m.animations.clear();
        assert_eq!(active_phase(&m, 12345, 0), 0);
    }

    #[test]
    fn name_seeds_are_stable_and_distinct() {
        assert_eq!(name_seed("M_SMOKE"), name_seed("M_SMOKE"));
        assert_ne!(name_seed("M_SMOKE"), name_seed("M_FIRE"));
    }
}
