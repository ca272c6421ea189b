// The legacy fixed-function model of tome V as one shader (LegacyMaterial,
// plugins/render/src/material.rs):
//   stage 0: phase texture (UV0) * lit diffuse colour (untextured: the colour)
//   stage 1: * lightmap (UV1), when the batch has UV1 and a WEAR lightmap
//   alpha test: discard below alpha_ref; blending is pipeline state.
// Lighting is the original's software model (openparkan docs/03-terrain.md
// "How the landscape is lit and fogged"): lit = knee(max(sun * N.L, scene))
// from the scene's first directional light (colour x illuminance) and the
// ambient colour (the sky's scene colour); the diffuse takes min(lit, 1),
// what lies above 1 spills into a specular added after the texture. Fog,
// when the camera has a linear DistanceFog: keep = 1 - (d^2 - start^2) /
// (end^2 - start^2), linear in the squared distance from the eye.
// Shadows (FLAG_SHADOWED, the terrain): the sun's term is scaled by the
// first directional light's shadow map (plugins/render/src/shadow.rs).
// Point lights (FLAG_POINT_LIT, the terrain): the original's emulation
// (plugins/render/src/lights.rs) adds each light's premultiplied colour
// within its range, falling off across the disc it makes on the surface's
// plane: (range^2 - r^2) / (range^2 - d^2), d the distance to the plane.
// Water (FLAG_WATER, plugins/render/src/water.rs): no texture; the
// reflection on stage 1 at the fragment's place in the water box, moved by
// the bump map's texel (computed, not sampled), times the lit colour.

#import bevy_pbr::forward_io::VertexOutput
#import bevy_pbr::mesh_view_bindings::{lights, view}
#import bevy_pbr::mesh_view_bindings as view_bindings
#import bevy_pbr::mesh_view_types::DIRECTIONAL_LIGHT_FLAGS_SHADOWS_ENABLED_BIT
#import bevy_pbr::shadows::fetch_directional_shadow
#import bevy_pbr::mesh_view_bindings::clustered_lights
#import bevy_pbr::clustered_forward::{
    view_fragment_cluster_index, unpack_clusterable_object_index_ranges, get_clusterable_object_id
}

struct LegacyUniform {
    // Diffuse colour of the surface (rgb) and the material alpha (a).
    colour: vec4<f32>,
    // Alpha reference in 0..1 (used when FLAG_ALPHA_TEST is set).
    alpha_ref: f32,
    // FLAG_* bits below.
    flags: u32,
    // Water: the box's corner (map x, y) and the inverse of its sides.
    water: vec4<f32>,
    // Water: bump tiles, drift, coefficients 00 and 11 (0: no bump).
    bump: vec4<f32>,
    // Water: the bump map's largest value.
    bump_max: f32,
};

const FLAG_TEXTURED: u32 = 1u;
const FLAG_LIGHTMAP: u32 = 2u;
const FLAG_ALPHA_TEST: u32 = 4u;
const FLAG_VERTEX_COLOURS: u32 = 8u;
const FLAG_UNLIT: u32 = 16u;
const FLAG_SHADOWED: u32 = 32u;
const FLAG_POINT_LIT: u32 = 64u;
const FLAG_WATER: u32 = 128u;

// Bevy's linear fog mode (bevy_pbr mesh_view_types).
const FOG_MODE_LINEAR: u32 = 1u;

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> material: LegacyUniform;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var stage0_texture: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(2) var stage0_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(3) var stage1_texture: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(4) var stage1_sampler: sampler;

fn sun_direction() -> vec3<f32> {
    if (lights.n_directional_lights > 0u) {
        return normalize(lights.directional_lights[0].direction_to_light);
    }
    return normalize(vec3<f32>(0.4, 0.8, 0.3));
}

fn sun_colour() -> vec3<f32> {
    if (lights.n_directional_lights > 0u) {
        return lights.directional_lights[0].color.rgb;
    }
    return vec3<f32>(1.0);
}

// The original's soft knee: itself up to 1, c / 6 + 5 / 6 up to 7, then 2.
fn knee(c: vec3<f32>) -> vec3<f32> {
    return select(select(vec3<f32>(2.0), c / 6.0 + 5.0 / 6.0, c <= vec3<f32>(7.0)), c, c <= vec3<f32>(1.0));
}

// What lies above 1 spills: 0.8 s up to 1, 0.1 s + 0.7 up to 3, then 1.
fn spill(s: vec3<f32>) -> vec3<f32> {
    return select(select(vec3<f32>(1.0), 0.1 * s + 0.7, s <= vec3<f32>(3.0)), 0.8 * s, s <= vec3<f32>(1.0));
}

// The view-space depth of `in` (negative in front of the eye).
fn view_depth(in: VertexOutput) -> f32 {
    return dot(vec4<f32>(
        view.view_from_world[0].z,
        view.view_from_world[1].z,
        view.view_from_world[2].z,
        view.view_from_world[3].z
    ), in.world_position);
}

// How much of the sun reaches `in` (1 unshadowed).
fn sunlit(in: VertexOutput, normal: vec3<f32>) -> f32 {
    if ((material.flags & FLAG_SHADOWED) == 0u || lights.n_directional_lights == 0u
            || (lights.directional_lights[0].flags & DIRECTIONAL_LIGHT_FLAGS_SHADOWS_ENABLED_BIT) == 0u) {
        return 1.0;
    }
    return fetch_directional_shadow(0u, in.world_position, normal, view_depth(in), in.position.xy);
}

// What the point lights of `in`'s cluster add to it.
fn point_lit(in: VertexOutput, normal: vec3<f32>) -> vec3<f32> {
    var added = vec3<f32>(0.0);
    if ((material.flags & FLAG_POINT_LIT) == 0u) {
        return added;
    }
    let orthographic = view.clip_from_view[3].w == 1.0;
    let cluster = view_fragment_cluster_index(in.position.xy, view_depth(in), orthographic);
    let ranges = unpack_clusterable_object_index_ranges(cluster);
    for (var i = ranges.first_point_light_index_offset; i < ranges.first_spot_light_index_offset; i = i + 1u) {
        let light = &clustered_lights.data[get_clusterable_object_id(i)];
        let to_light = (*light).position_radius.xyz - in.world_position.xyz;
        let range2 = 1.0 / (*light).color_inverse_square_range.w;
        let r2 = dot(to_light, to_light);
        if (r2 >= range2) {
            continue;
        }
        let d = dot(to_light, normal);
        let falloff = clamp((range2 - r2) / max(range2 - d * d, 1e-4), 0.0, 1.0);
        added += (*light).color_inverse_square_range.rgb * falloff;
    }
    return added;
}

// The reflection seen at `in`, a water fragment.
fn water_reflection(in: VertexOutput) -> vec3<f32> {
    let map = vec2<f32>(in.world_position.x, -in.world_position.z);
    let uv1 = (map - material.water.xy) * material.water.zw;
    var offset = vec2<f32>(0.0);
    if (material.bump.x > 0.0) {
        let uv0 = uv1 * material.bump.x + vec2<f32>(material.bump.y);
        let texel = floor(fract(uv0) * 32.0);
        let angle = 4.0 * 3.14159 * ((texel.x + texel.y) / 32.0 - 1.0);
        // Signed bytes, read as -1..1.
        let du = round(material.bump_max * cos(angle)) / 127.0;
        let dv = round(material.bump_max * sin(angle)) / 127.0;
        offset = vec2<f32>(material.bump.z * du, material.bump.w * dv);
    }
    return textureSample(stage1_texture, stage1_sampler, uv1 + offset).rgb;
}

fn fogged(colour: vec3<f32>, world: vec3<f32>) -> vec3<f32> {
    // Bevy binds the fog only to views that have one (no sky: no fog).
#ifndef DISTANCE_FOG
    return colour;
#else
    let fog = view_bindings::fog;
    if (fog.mode != FOG_MODE_LINEAR) {
        return colour;
    }
    let d = distance(world, view.world_position);
    let start = fog.be.x;
    let end = max(fog.be.y, start + 0.001);
    let keep = clamp(1.0 - (d * d - start * start) / (end * end - start * start), 0.0, 1.0);
    return mix(fog.base_color.rgb, colour, keep);
#endif
}

@fragment
fn fragment(in: VertexOutput, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    var normal = normalize(in.world_normal);
    if (!front) {
        normal = -normal;
    }
    let unlit = (material.flags & FLAG_UNLIT) != 0u;
    let cosine = max(dot(normal, sun_direction()), 0.0) * sunlit(in, normal);
    var lit = knee(max(sun_colour() * cosine, lights.ambient_color.rgb));
    if (unlit) {
        lit = vec3<f32>(1.0);
    }
    let specular = spill(max(lit - vec3<f32>(1.0), vec3<f32>(0.0)));
    var diffuse = material.colour;
#ifdef VERTEX_COLORS
    if ((material.flags & FLAG_VERTEX_COLOURS) != 0u) {
        diffuse = diffuse * in.color;
    }
#endif
    var colour = vec4<f32>(diffuse.rgb * min(lit, vec3<f32>(1.0)), diffuse.a);
    let water = (material.flags & FLAG_WATER) != 0u;
    if (water) {
        colour = vec4<f32>(colour.rgb * water_reflection(in), 1.0);
    }
#ifdef VERTEX_UVS_A
    if ((material.flags & FLAG_TEXTURED) != 0u && !water) {
        colour = colour * textureSample(stage0_texture, stage0_sampler, in.uv);
    }
#endif
#ifdef VERTEX_UVS_B
    if ((material.flags & FLAG_LIGHTMAP) != 0u) {
        let lightmap = textureSample(stage1_texture, stage1_sampler, in.uv_b);
        colour = vec4<f32>(colour.rgb * lightmap.rgb, colour.a);
    }
#endif
    if ((material.flags & FLAG_ALPHA_TEST) != 0u && colour.a < material.alpha_ref) {
        discard;
    }
    if (unlit) {
        return colour;
    }
    let lit_colour = colour.rgb + specular + point_lit(in, normal);
    return vec4<f32>(fogged(lit_colour, in.world_position.xyz), colour.a);
}
