//! [`LegacyMaterial`]: the one material of the terrain and of every model
//! batch. It carries a [`LegacyRenderState`] (as its pipeline key), the
//! stage-0 texture and the stage-1 lightmap; `assets/shaders/legacy.wgsl`
//! (embedded in the binary, so any working directory works) does the
//! fixed-function colour maths and [`Material::specialize`] sets blend,
//! depth and cull from the key. The Bevy phase queue follows the tome V
//! render phase: opaque, alpha-mask (alpha-tested), transparent (sorted
//! back to front by Bevy's stable radix sort on view distance).

use crate::draw::RenderPhase;
use crate::legacy::{BlendFactor, BlendMode, CullMode, LegacyRenderState};
use bevy::asset::io::embedded::EmbeddedAssetRegistry;
use bevy::asset::uuid_handle;
use bevy::mesh::MeshVertexBufferLayoutRef;
use bevy::pbr::{MaterialPipeline, MaterialPipelineKey};
use bevy::prelude::*;
use bevy::render::render_resource::{
    AsBindGroup, BlendComponent, BlendOperation, BlendState, CompareFunction, Face,
    RenderPipelineDescriptor, ShaderType, SpecializedMeshPipelineError,
};
use bevy::render::storage::ShaderBuffer;
use bevy::shader::ShaderRef;
use std::path::{Path, PathBuf};

/// The buffer of the frame's point lights, bound by every
/// [`LegacyMaterial`]; the light manager fills it.
pub const POINT_LIGHTS: Handle<ShaderBuffer> = uuid_handle!("6b1e0f4e-2a43-4c55-9a0f-5d1c7e2b8a31");

/// The shader source, embedded from the repository's `assets/`.
const SHADER_SOURCE: &[u8] = include_bytes!("../../../assets/shaders/legacy.wgsl");
/// Where the embedded shader is registered (`embedded://` source).
const SHADER_PATH: &str = "iron3d_render/legacy.wgsl";

/// Shader flag: stage 0 samples its texture.
pub const FLAG_TEXTURED: u32 = 1;
/// Shader flag: stage 1 modulates by the lightmap through UV1.
pub const FLAG_LIGHTMAP: u32 = 2;
/// Shader flag: alpha test against `alpha_ref`.
pub const FLAG_ALPHA_TEST: u32 = 4;
/// Shader flag: multiply by the vertex colours.
pub const FLAG_VERTEX_COLOURS: u32 = 8;
/// Shader flag: neither lit nor fogged (the sky's sprites).
pub const FLAG_UNLIT: u32 = 16;
/// Shader flag: the sun is taken away where the shadow map is occluded
/// (the terrain, the shadow module).
pub const FLAG_SHADOWED: u32 = 32;
/// Shader flag: the effects' point lights light it (the terrain and the
/// model batches, the light manager).
pub const FLAG_POINT_LIT: u32 = 64;
/// Shader flag: water, the reflection on stage 1 (the water module).
pub const FLAG_WATER: u32 = 128;
/// Shader flag: the point lights are also emulated on it as discs (a
/// model batch whose word carries `0x800`, the light manager).
pub const FLAG_POINT_DISC: u32 = 256;
/// Shader flag: the sky's dome over the nebula: the texture under the
/// vertex colours, each vertex's alpha the share of its colour
/// (the sky module).
pub const FLAG_NEBULA: u32 = 512;

/// Registers the embedded shader (needs `AssetPlugin`).
pub fn embed_shader(app: &mut App) {
    if let Some(registry) = app.world().get_resource::<EmbeddedAssetRegistry>() {
        registry.insert_asset(PathBuf::new(), Path::new(SHADER_PATH), SHADER_SOURCE);
    }
}

/// The shader's uniform block.
#[derive(Debug, Clone, Copy, PartialEq, ShaderType)]
pub struct LegacyUniform {
    /// Diffuse colour (rgb) and material alpha (a), linear.
    pub colour: Vec4,
    /// Alpha reference in 0..1.
    pub alpha_ref: f32,
    /// `FLAG_*` bits.
    pub flags: u32,
    /// Water ([`FLAG_WATER`]): the water box's corner (map x, y) and the
    /// inverse of its sides.
    pub water: Vec4,
    /// Water: the bump's tiles across the box, its drift, and its two
    /// coefficients (all 0 without the bump).
    pub bump: Vec4,
    /// Water: the bump map's largest value (`EMBMMaxVal`).
    pub bump_max: f32,
}

/// One draw's legacy material: state, stage-0 texture, stage-1 lightmap.
#[derive(Asset, AsBindGroup, TypePath, Debug, Clone)]
#[bind_group_data(LegacyKey)]
pub struct LegacyMaterial {
    #[uniform(0)]
    pub uniform: LegacyUniform,
    #[texture(1)]
    #[sampler(2)]
    pub texture: Option<Handle<Image>>,
    #[texture(3)]
    #[sampler(4)]
    pub lightmap: Option<Handle<Image>>,
    /// The frame's point lights, one buffer every material shares
    /// ([`POINT_LIGHTS`]).
    #[storage(5, read_only)]
    pub lights: Handle<ShaderBuffer>,
    /// The fixed-function state this material draws with.
    pub state: LegacyRenderState,
    /// Whether this is the terrain (its opaque phase is `OpaqueTerrain`).
    pub terrain: bool,
}

/// The pipeline key of a [`LegacyMaterial`]: its state's
/// [`LegacyRenderState::pipeline_key`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LegacyKey(pub u64);

impl From<&LegacyMaterial> for LegacyKey {
    fn from(material: &LegacyMaterial) -> Self {
        LegacyKey(material.state.pipeline_key())
    }
}

/// Grey of an untextured surface.
const UNTEXTURED: Vec4 = Vec4::new(0.6, 0.6, 0.6, 1.0);

impl LegacyMaterial {
    /// A material drawing `state` with `texture` on stage 0 and `lightmap`
    /// on stage 1 (used only when the state enables stage 1) and the
    /// material alpha `alpha`.
    pub fn new(
        state: LegacyRenderState,
        texture: Option<Handle<Image>>,
        lightmap: Option<Handle<Image>>,
        alpha: f32,
    ) -> Self {
        let mut material = Self {
            uniform: LegacyUniform {
                colour: Vec4::ONE,
                alpha_ref: 0.0,
                flags: 0,
                water: Vec4::ZERO,
                bump: Vec4::ZERO,
                bump_max: 0.0,
            },
            texture: None,
            lightmap: None,
            lights: POINT_LIGHTS,
            state,
            terrain: false,
        };
        material.set_texture(texture);
        material.lightmap = lightmap.filter(|_| state.stages[1].textured());
        material.uniform.colour.w = alpha.clamp(0.0, 1.0);
        material.uniform.alpha_ref = state.alpha_ref as f32 / 255.0;
        material.uniform.flags |= flag(material.lightmap.is_some(), FLAG_LIGHTMAP)
            | flag(state.alpha_test, FLAG_ALPHA_TEST)
            | flag(state.vertex.colours, FLAG_VERTEX_COLOURS);
        material
    }

    /// The material of a `Material.lib` entry in its phase `phase` (its
    /// texture, its MAT0 state and alpha times `fade`), as effects and the
    /// sky draw one.
    pub fn of_entry(row: &iron3d_assets::material::MaterialRow, phase: usize, fade: f32) -> Self {
        let texture = row.textures.get(phase).cloned().flatten();
        let state =
            crate::legacy::MaterialInputs::of_batch(&row.mat0, texture.is_some(), false, false)
                .state();
        Self::new(state, texture, None, row.mat0.alpha() * fade)
    }

    /// Draws it neither lit nor fogged.
    pub fn unlit(mut self) -> Self {
        self.uniform.flags |= FLAG_UNLIT;
        self
    }

    /// Puts `texture` on stage 0 (an untextured surface is plain grey).
    pub fn set_texture(&mut self, texture: Option<Handle<Image>>) {
        let alpha = self.uniform.colour.w;
        self.uniform.colour = if texture.is_some() {
            Vec4::ONE
        } else {
            UNTEXTURED
        }
        .with_w(alpha);
        self.uniform.flags =
            (self.uniform.flags & !FLAG_TEXTURED) | flag(texture.is_some(), FLAG_TEXTURED);
        self.texture = texture;
    }

    /// The tome V render phase of draws with this material.
    pub fn render_phase(&self) -> RenderPhase {
        self.state.render_phase(self.terrain)
    }
}

/// The asset path of a material key (`MATERIAL.LIB::NAME`, an
/// [`iron3d_assets::material::EntryMaterial`]); the source finds names in
/// any case. `None` for a key of another library.
pub fn entry_path(key: &str) -> Option<String> {
    use iron3d_assets::material::MATERIAL_LIBRARY;
    let (archive, name) = key.split_once("::")?;
    archive
        .eq_ignore_ascii_case(MATERIAL_LIBRARY)
        .then(|| format!("iron://{MATERIAL_LIBRARY}/{name}.mat0"))
}

fn flag(on: bool, bit: u32) -> u32 {
    if on { bit } else { 0 }
}

/// The wgpu factor of a `D3DBLEND` factor (`SRCALPHASAT` has no wgpu
/// equivalent; `SrcAlphaSaturated` is its Direct3D 9 meaning).
fn wgpu_factor(factor: BlendFactor) -> bevy::render::render_resource::BlendFactor {
    use bevy::render::render_resource::BlendFactor as W;
    match factor {
        BlendFactor::Zero => W::Zero,
        BlendFactor::One => W::One,
        BlendFactor::SrcColour => W::Src,
        BlendFactor::InvSrcColour => W::OneMinusSrc,
        BlendFactor::SrcAlpha => W::SrcAlpha,
        BlendFactor::InvSrcAlpha => W::OneMinusSrcAlpha,
        BlendFactor::DstAlpha => W::DstAlpha,
        BlendFactor::InvDstAlpha => W::OneMinusDstAlpha,
        BlendFactor::DstColour => W::Dst,
        BlendFactor::InvDstColour => W::OneMinusDst,
        BlendFactor::SrcAlphaSat => W::SrcAlphaSaturated,
    }
}

/// The wgpu blend state of a legacy blend mode (`None`: no blending).
pub fn blend_state(blend: BlendMode) -> Option<BlendState> {
    match blend {
        BlendMode::Opaque => None,
        BlendMode::Blend { src, dst } => {
            let component = BlendComponent {
                src_factor: wgpu_factor(src),
                dst_factor: wgpu_factor(dst),
                operation: BlendOperation::Add,
            };
            Some(BlendState {
                color: component,
                alpha: component,
            })
        }
    }
}

impl Material for LegacyMaterial {
    fn fragment_shader() -> ShaderRef {
        ShaderRef::Path(
            bevy::asset::AssetPath::from_path(Path::new(SHADER_PATH))
                .with_source("embedded")
                .into_owned(),
        )
    }

    /// The Bevy phase queue of the tome V phase: transparent draws are
    /// sorted back to front; alpha-tested ones and the material passes go
    /// to the alpha-mask queue, which Bevy draws after every opaque draw
    /// (the terrain overlay's blending and depth come from its state).
    fn alpha_mode(&self) -> AlphaMode {
        match self.render_phase() {
            RenderPhase::Transparent => AlphaMode::Blend,
            RenderPhase::AlphaTested | RenderPhase::MaterialPasses => {
                AlphaMode::Mask(self.uniform.alpha_ref)
            }
            RenderPhase::OpaqueTerrain
            | RenderPhase::OpaqueObjects
            | RenderPhase::Shadows
            | RenderPhase::Atmosphere => AlphaMode::Opaque,
        }
    }

    fn enable_prepass() -> bool {
        false
    }

    /// Opaque batches the shadow pass chooses cast (the shadow module).
    fn enable_shadows() -> bool {
        true
    }

    fn specialize(
        _pipeline: &MaterialPipeline,
        descriptor: &mut RenderPipelineDescriptor,
        _layout: &MeshVertexBufferLayoutRef,
        key: MaterialPipelineKey<Self>,
    ) -> Result<(), SpecializedMeshPipelineError> {
        let state = LegacyRenderState::from_pipeline_key(key.bind_group_data.0);
        if let Some(fragment) = descriptor.fragment.as_mut() {
            for target in fragment.targets.iter_mut().flatten() {
                target.blend = blend_state(state.blend);
            }
        }
        descriptor.primitive.cull_mode = match state.cull {
            CullMode::None => None,
            CullMode::Back => Some(Face::Back),
        };
        if let Some(depth) = descriptor.depth_stencil.as_mut() {
            depth.depth_write_enabled = Some(state.depth.write);
            if !state.depth.test {
                depth.depth_compare = Some(CompareFunction::Always);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::legacy::MaterialInputs;
    use iron3d_formats::mat0::Mat0;

    #[test]
    fn blended_states_get_their_factors_and_opaque_none() {
        assert_eq!(blend_state(BlendMode::Opaque), None);
        let b = blend_state(BlendMode::Blend {
            src: BlendFactor::SrcAlpha,
            dst: BlendFactor::One,
        })
        .unwrap();
        use bevy::render::render_resource::BlendFactor as W;
        assert_eq!(b.color.src_factor, W::SrcAlpha);
        assert_eq!(b.color.dst_factor, W::One);
    }

    #[test]
    fn the_material_follows_its_state() {
        let mut m = Mat0::new(4, 2 << 2);
        m.phases.clear();
        let state = MaterialInputs::of_batch(&m, true, true, true).state();
        let texture = Handle::<Image>::default();
        let material = LegacyMaterial::new(state, Some(texture.clone()), Some(texture), 1.0);
        assert_eq!(material.alpha_mode(), AlphaMode::Mask(128.0 / 255.0));
        assert_eq!(
            material.uniform.flags,
            FLAG_TEXTURED | FLAG_LIGHTMAP | FLAG_ALPHA_TEST
        );
        assert_eq!(LegacyKey::from(&material).0, state.pipeline_key());
        let mut untextured = material.clone();
        untextured.set_texture(None);
        assert_eq!(untextured.uniform.flags & FLAG_TEXTURED, 0);
        assert_eq!(untextured.uniform.colour, UNTEXTURED);
    }
}
