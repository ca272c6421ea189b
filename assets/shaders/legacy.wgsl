// The legacy fixed-function model of tome V as one shader (LegacyMaterial,
// plugins/render/src/material.rs):
//   stage 0: phase texture (UV0) * lit diffuse colour (untextured: the colour)
//   stage 1: * lightmap (UV1), when the batch has UV1 and a WEAR lightmap
//   alpha test: discard below alpha_ref; blending is pipeline state.
// Lighting is the original's software model (openparkan docs/03-terrain.md
// "How the landscape is lit and fogged"): lit = knee(max(sum of light *
// N.L, scene)) over the scene's directional lights (the sky's main and
// counter lights, colour x illuminance) and the ambient colour (the sky's
// scene colour); the diffuse takes min(lit, 1),
// what lies above 1 spills into a specular added after the texture. Fog,
// when the camera has a linear DistanceFog: keep = 1 - (d^2 - start^2) /
// (end^2 - start^2), linear in the squared distance from the eye.
// Shadows (FLAG_SHADOWED, the terrain): a light's term is scaled by its
// shadow map, when it has one (the main light: plugins/render/src/shadow.rs).
// Point lights (plugins/render/src/lights.rs): FLAG_POINT_LIT (the terrain
// and model batches) adds the effects' lights to the sky's before the
// knee; FLAG_POINT_DISC (a batch word's 0x800) adds the emulation's discs
// after the texture.
// The dome over the nebula (FLAG_NEBULA, plugins/render/src/sky.rs): the
// nebula's texture under the vertex colours, mixed by their alpha.
// Water (FLAG_WATER, plugins/render/src/water.rs): no texture; the
// reflection on stage 1 at the fragment's place in the water box, moved by
// the bump map's texel (computed, not sampled), times the lit colour.

#import bevy_pbr::forward_io::VertexOutput
#import bevy_pbr::mesh_view_bindings::{lights, view}
#import bevy_pbr::mesh_view_bindings as view_bindings
#import bevy_pbr::mesh_view_types::DIRECTIONAL_LIGHT_FLAGS_SHADOWS_ENABLED_BIT
#import bevy_pbr::shadows::fetch_directional_shadow
#import bevy_pbr::mesh_functions::get_tag

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
const FLAG_POINT_DISC: u32 = 256u;
const FLAG_NEBULA: u32 = 512u;

// The frame's point lights (plugins/render/src/lights.rs GpuPointLights).
const MAX_POINT_LIGHTS: u32 = 8u;
struct PointLight {
    position: vec3<f32>,
    range: f32,
    colour: vec3<f32>,
    // The owner's tag (original id + 1); 0 lights every surface.
    owner: u32,
    attenuation: vec3<f32>,
    // Bit 0: the emulation's discs take it.
    disc: u32,
};
struct PointLights {
    count: u32,
    items: array<PointLight, 8>,
};

// Bevy's linear fog mode (bevy_pbr mesh_view_types).
const FOG_MODE_LINEAR: u32 = 1u;

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> material: LegacyUniform;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var stage0_texture: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(2) var stage0_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(3) var stage1_texture: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(4) var stage1_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(5) var<storage, read> point_lights: PointLights;

// What the directional lights give `in` (facing `normal`): each light's
// colour x cos, the shadowed one's term scaled by its map; without any
// light a white one from the south-east, high.
fn directional(in: VertexOutput, normal: vec3<f32>) -> vec3<f32> {
    if (lights.n_directional_lights == 0u) {
        return vec3<f32>(max(dot(normal, normalize(vec3<f32>(0.4, 0.8, 0.3))), 0.0));
    }
    var sum = vec3<f32>(0.0);
    for (var i = 0u; i < lights.n_directional_lights; i = i + 1u) {
        let light = &lights.directional_lights[i];
        let cosine = max(dot(normal, normalize((*light).direction_to_light)), 0.0);
        sum += (*light).color.rgb * cosine * sunlit(in, normal, i);
    }
    return sum;
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

// How much of directional light `light` reaches `in` (1 unshadowed).
fn sunlit(in: VertexOutput, normal: vec3<f32>, light: u32) -> f32 {
    if ((material.flags & FLAG_SHADOWED) == 0u
            || (lights.directional_lights[light].flags & DIRECTIONAL_LIGHT_FLAGS_SHADOWS_ENABLED_BIT) == 0u) {
        return 1.0;
    }
    return fetch_directional_shadow(light, in.world_position, normal, view_depth(in), in.position.xy);
}

// What the effects' point lights give `in` (facing `normal`).
struct PointLit {
    // The vertex lighter's (FLAG_POINT_LIT), added to the light before the
    // knee: colour x cos x (a0 + a1 x + a2 x^2), x = (range - d) / range,
    // nothing past the range or turned away.
    light: vec3<f32>,
    // The emulation's discs (FLAG_POINT_DISC), added after the texture:
    // within the range, the colour over its length times that length x
    // 0.25 held at 2, falling off across the disc the light makes on the
    // surface's plane: (range^2 - r^2) / (range^2 - d^2), d the distance
    // to the plane.
    discs: vec3<f32>,
};

// An owner-only light lights only its owner's batches.
fn point_lit(in: VertexOutput, normal: vec3<f32>) -> PointLit {
    var out = PointLit(vec3<f32>(0.0), vec3<f32>(0.0));
    let lighter = (material.flags & FLAG_POINT_LIT) != 0u;
    let discs = (material.flags & FLAG_POINT_DISC) != 0u;
    if (!lighter && !discs) {
        return out;
    }
    let tag = get_tag(in.instance_index);
    for (var i = 0u; i < min(point_lights.count, MAX_POINT_LIGHTS); i = i + 1u) {
        let light = point_lights.items[i];
        let to_light = light.position - in.world_position.xyz;
        let d = length(to_light);
        if ((light.owner != 0u && light.owner != tag) || d >= light.range) {
            continue;
        }
        let cosine = dot(normal, to_light / max(d, 1e-4));
        if (lighter && cosine > 0.0) {
            let x = (light.range - d) / light.range;
            let a = light.attenuation;
            out.light += light.colour * cosine * (a.x + a.y * x + a.z * x * x);
        }
        let size = length(light.colour);
        if (discs && (light.disc & 1u) != 0u && size > 0.0) {
            let range2 = light.range * light.range;
            let plane = dot(to_light, normal);
            let falloff = clamp((range2 - d * d) / max(range2 - plane * plane, 1e-4), 0.0, 1.0);
            out.discs += light.colour / size * min(size * 0.25, 2.0) * falloff;
        }
    }
    return out;
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
#ifdef VERTEX_UVS_A
#ifdef VERTEX_COLORS
    if ((material.flags & FLAG_NEBULA) != 0u) {
        let nebula = textureSample(stage0_texture, stage0_sampler, in.uv).rgb * material.colour.rgb;
        return vec4<f32>(mix(nebula, in.color.rgb, in.color.a), 1.0);
    }
#endif
#endif
    let unlit = (material.flags & FLAG_UNLIT) != 0u;
    let points = point_lit(in, normal);
    var lit = knee(max(directional(in, normal) + points.light, lights.ambient_color.rgb));
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
    let lit_colour = colour.rgb + specular + points.discs;
    return vec4<f32>(fogged(lit_colour, in.world_position.xyz), colour.a);
}
