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

#import bevy_pbr::forward_io::VertexOutput
#import bevy_pbr::mesh_view_bindings::{lights, fog, view}

struct LegacyUniform {
    // Diffuse colour of the surface (rgb) and the material alpha (a).
    colour: vec4<f32>,
    // Alpha reference in 0..1 (used when FLAG_ALPHA_TEST is set).
    alpha_ref: f32,
    // FLAG_* bits below.
    flags: u32,
};

const FLAG_TEXTURED: u32 = 1u;
const FLAG_LIGHTMAP: u32 = 2u;
const FLAG_ALPHA_TEST: u32 = 4u;
const FLAG_VERTEX_COLOURS: u32 = 8u;
const FLAG_UNLIT: u32 = 16u;

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

fn fogged(colour: vec3<f32>, world: vec3<f32>) -> vec3<f32> {
    if (fog.mode != FOG_MODE_LINEAR) {
        return colour;
    }
    let d = distance(world, view.world_position);
    let start = fog.be.x;
    let end = max(fog.be.y, start + 0.001);
    let keep = clamp(1.0 - (d * d - start * start) / (end * end - start * start), 0.0, 1.0);
    return mix(fog.base_color.rgb, colour, keep);
}

@fragment
fn fragment(in: VertexOutput, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    var normal = normalize(in.world_normal);
    if (!front) {
        normal = -normal;
    }
    let unlit = (material.flags & FLAG_UNLIT) != 0u;
    let cosine = max(dot(normal, sun_direction()), 0.0);
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
#ifdef VERTEX_UVS_A
    if ((material.flags & FLAG_TEXTURED) != 0u) {
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
    return vec4<f32>(fogged(colour.rgb + specular, in.world_position.xyz), colour.a);
}
