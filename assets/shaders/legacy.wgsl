// The legacy fixed-function model of tome V as one shader (LegacyMaterial,
// plugins/render/src/material.rs):
//   stage 0: phase texture (UV0) * lit diffuse colour (untextured: the colour)
//   stage 1: * lightmap (UV1), when the batch has UV1 and a WEAR lightmap
//   alpha test: discard below alpha_ref; blending is pipeline state.
// Lighting is the fixed-function directional model: ambient + sun * N.L,
// with the direction of the scene's first directional light.

#import bevy_pbr::forward_io::VertexOutput
#import bevy_pbr::mesh_view_bindings::lights

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

// Fixed-function light of the scene: ambient and sun intensities.
const AMBIENT: f32 = 0.45;
const SUN: f32 = 0.75;

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

@fragment
fn fragment(in: VertexOutput, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    var normal = normalize(in.world_normal);
    if (!front) {
        normal = -normal;
    }
    let light = AMBIENT + SUN * max(dot(normal, sun_direction()), 0.0);
    var diffuse = material.colour;
#ifdef VERTEX_COLORS
    if ((material.flags & FLAG_VERTEX_COLOURS) != 0u) {
        diffuse = diffuse * in.color;
    }
#endif
    var colour = vec4<f32>(diffuse.rgb * min(light, 1.0), diffuse.a);
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
    return colour;
}
