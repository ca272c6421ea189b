//! The legacy (fixed-function) render state of one draw (tome V, "Свет,
//! тени, атмосфера и сортировка": CShade builds a legacy state from the
//! active MAT0 phase, then it is mapped onto a shader permutation).
//!
//! [`LegacyRenderState`] holds what a Direct3D 6/7 fixed-function pipeline
//! would be given for a batch: two texture stages (stage 0 the phase
//! texture modulated by the lit vertex colour, stage 1 the WEAR lightmap
//! through UV1), the blend mode from the MAT0 blend bytes (D3D `D3DBLEND`
//! values), depth test/write, cull mode, alpha test with its reference and
//! the vertex format. It reduces to an immutable [`pipeline_key`]
//! ([`LegacyRenderState::pipeline_key`]) that decodes back
//! ([`LegacyRenderState::from_pipeline_key`]) and to a [`RenderPhase`].
//!
//! Where the spec leaves the mapping open (what the MAT0 render type means,
//! the default blend of an unset byte, the alpha reference), the choices
//! are made here, in [`MaterialInputs::state`], and recorded in
//! docs/facts.md.
//!
//! [`pipeline_key`]: LegacyRenderState::pipeline_key

use crate::draw::RenderPhase;
use iron3d_formats::mat0::Mat0;

/// A `D3DBLEND` factor (values 1..=11 of the MAT0 blend bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlendFactor {
    Zero = 1,
    One = 2,
    SrcColour = 3,
    InvSrcColour = 4,
    SrcAlpha = 5,
    InvSrcAlpha = 6,
    DstAlpha = 7,
    InvDstAlpha = 8,
    DstColour = 9,
    InvDstColour = 10,
    SrcAlphaSat = 11,
}

impl BlendFactor {
    /// The factor of a `D3DBLEND` byte; `None` for 0, 12..=255 (255 is the
    /// MAT0 default of versions below 2: "not set").
    pub fn from_d3d(byte: u8) -> Option<Self> {
        use BlendFactor::*;
        Some(match byte {
            1 => Zero,
            2 => One,
            3 => SrcColour,
            4 => InvSrcColour,
            5 => SrcAlpha,
            6 => InvSrcAlpha,
            7 => DstAlpha,
            8 => InvDstAlpha,
            9 => DstColour,
            10 => InvDstColour,
            11 => SrcAlphaSat,
            _ => return None,
        })
    }
}

/// Frame-buffer blending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlendMode {
    /// Blending disabled: the fragment replaces the pixel.
    Opaque,
    /// `pixel = fragment * src + pixel * dst`.
    Blend { src: BlendFactor, dst: BlendFactor },
}

/// Depth test (less-or-equal, reversed-Z in Bevy) and depth write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DepthMode {
    pub test: bool,
    pub write: bool,
}

/// Which faces are culled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CullMode {
    /// Both sides drawn (`D3DCULL_NONE`).
    None,
    /// Back faces culled (counter-clockwise front faces in Bevy's frame).
    Back,
}

/// The colour/alpha operation of a texture stage (`D3DTEXTUREOP` subset).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextureOp {
    /// The stage is off (and every later one).
    Disable,
    /// The previous result (stage 0: the lit vertex colour) alone.
    SelectCurrent,
    /// Texture times the previous result.
    Modulate,
}

/// One texture stage: whether a texture is bound, its ops and the UV set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TextureStage {
    pub colour_op: TextureOp,
    pub alpha_op: TextureOp,
    /// 0: UV0, 1: UV1.
    pub uv_set: u8,
}

impl TextureStage {
    const DISABLED: Self = Self {
        colour_op: TextureOp::Disable,
        alpha_op: TextureOp::Disable,
        uv_set: 0,
    };

    /// Whether a texture is sampled.
    pub fn textured(&self) -> bool {
        self.colour_op == TextureOp::Modulate
    }
}

/// The vertex streams a draw uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VertexFormat {
    pub normals: bool,
    /// The second UV set (lightmap coordinates).
    pub uv1: bool,
    /// Per-vertex colours (the terrain's height shading).
    pub colours: bool,
}

/// The fixed-function state of one draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LegacyRenderState {
    pub stages: [TextureStage; 2],
    pub blend: BlendMode,
    pub depth: DepthMode,
    pub cull: CullMode,
    pub alpha_test: bool,
    /// Alpha reference of the test (`D3DRS_ALPHAREF`): fragments with
    /// alpha below `alpha_ref / 255` are discarded.
    pub alpha_ref: u8,
    pub vertex: VertexFormat,
}

/// The alpha reference of alpha-tested materials (half of the 8-bit
/// range; our choice, docs/facts.md).
// STAND-IN: 0x80 (tome V names the alpha test but no reference value);
// settled by reading `D3DRENDERSTATE_ALPHAREF` in `Ngi32.dll`.
pub const ALPHA_REF: u8 = 0x80;

/// The MAT0 render types (directory `attr1` bits 2..5) as read here.
pub mod render_type {
    // STAND-IN: `attr1` bits 2..5 read as 0 opaque, 1 blended, 2
    // alpha-tested, 3 additive (tome V maps a MAT0 phase to a state without
    // saying how; unverified on retail); settled by matching the retail
    // materials' render types to how their frames draw.

    /// Solid surface.
    pub const OPAQUE: u32 = 0;
    /// Blended with the MAT0 blend bytes.
    pub const BLENDED: u32 = 1;
    /// Alpha-tested cut-outs.
    pub const ALPHA_TESTED: u32 = 2;
    /// Additive glow (destination factor one).
    pub const ADDITIVE: u32 = 3;
}

/// What a draw's state is derived from: the active material, the batch's
/// vertex streams and the WEAR lightmap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MaterialInputs {
    /// MAT0 render type ([`render_type`]).
    pub render_type: u32,
    pub src_blend: u8,
    pub dst_blend: u8,
    /// MAT0 alpha (1.0 below version 3).
    pub alpha: f32,
    /// The active phase names a texture that loaded.
    pub textured: bool,
    /// The batch's mesh has UV1.
    pub uv1: bool,
    /// The WEAR gives the batch a lightmap image.
    pub lightmap: bool,
    /// Per-vertex colours present.
    pub colours: bool,
    /// Draw both sides.
    pub two_sided: bool,
}

impl MaterialInputs {
    /// The inputs of a model batch drawn with `mat0` (both sides: the MSH
    /// winding is not confirmed by the spec).
    pub fn of_batch(mat0: &Mat0, textured: bool, uv1: bool, lightmap: bool) -> Self {
        Self {
            render_type: mat0.render_type(),
            src_blend: mat0.src_blend,
            dst_blend: mat0.dst_blend,
            alpha: mat0.alpha(),
            textured,
            uv1,
            lightmap,
            colours: false,
            two_sided: true,
        }
    }

    /// A terrain ground layer: vertex-coloured (the layer's coverage in
    /// alpha), back faces culled (its faces are counter-clockwise seen from
    /// above), textured when its texture loaded. Layer 1 is opaque; the
    /// layer-2 `overlay` blends over it with the classic alpha blend
    /// (`SRCALPHA`, `INVSRCALPHA`), depth tested, not written.
    pub fn terrain_layer(overlay: bool, textured: bool) -> Self {
        Self {
            render_type: if overlay {
                render_type::BLENDED
            } else {
                render_type::OPAQUE
            },
            src_blend: 255,
            dst_blend: 255,
            alpha: 1.0,
            textured,
            uv1: false,
            lightmap: false,
            colours: true,
            two_sided: false,
        }
    }

    /// The blend of a blended material: the MAT0 bytes, each unset or
    /// invalid byte replaced by the classic alpha blend (`SRCALPHA`,
    /// `INVSRCALPHA`); additive materials force the destination to `ONE`.
    fn blend(&self) -> BlendMode {
        let src = BlendFactor::from_d3d(self.src_blend).unwrap_or(BlendFactor::SrcAlpha);
        let dst = if self.render_type == render_type::ADDITIVE {
            BlendFactor::One
        } else {
            BlendFactor::from_d3d(self.dst_blend).unwrap_or(BlendFactor::InvSrcAlpha)
        };
        BlendMode::Blend { src, dst }
    }

    /// The legacy state (the mapping choices are listed in docs/facts.md):
    /// - render type 1 and 3, or any material with alpha below 1, blend
    ///   (depth test on, depth write off); the others are opaque;
    /// - render type 2 is alpha-tested at [`ALPHA_REF`];
    /// - stage 0 modulates the phase texture with the lit colour (selects
    ///   the colour when untextured); stage 1 modulates the lightmap through
    ///   UV1 only when the batch has UV1 *and* the WEAR gives a lightmap.
    pub fn state(&self) -> LegacyRenderState {
        let blended = matches!(
            self.render_type,
            render_type::BLENDED | render_type::ADDITIVE
        ) || self.alpha < 1.0;
        let blend = if blended {
            self.blend()
        } else {
            BlendMode::Opaque
        };
        let stage0 = TextureStage {
            colour_op: if self.textured {
                TextureOp::Modulate
            } else {
                TextureOp::SelectCurrent
            },
            alpha_op: if self.textured {
                TextureOp::Modulate
            } else {
                TextureOp::SelectCurrent
            },
            uv_set: 0,
        };
        let stage1 = if self.uv1 && self.lightmap {
            TextureStage {
                colour_op: TextureOp::Modulate,
                alpha_op: TextureOp::SelectCurrent,
                uv_set: 1,
            }
        } else {
            TextureStage::DISABLED
        };
        let alpha_test = !blended && self.render_type == render_type::ALPHA_TESTED;
        LegacyRenderState {
            stages: [stage0, stage1],
            blend,
            depth: DepthMode {
                test: true,
                write: !blended,
            },
            cull: if self.two_sided {
                CullMode::None
            } else {
                CullMode::Back
            },
            alpha_test,
            alpha_ref: if alpha_test { ALPHA_REF } else { 0 },
            vertex: VertexFormat {
                normals: true,
                uv1: self.uv1,
                colours: self.colours,
            },
        }
    }
}

/// Bit layout of [`LegacyRenderState::pipeline_key`].
mod bits {
    pub const SRC: u32 = 0; // 4 bits, 0 = opaque
    pub const DST: u32 = 4; // 4 bits
    pub const DEPTH_TEST: u32 = 8;
    pub const DEPTH_WRITE: u32 = 9;
    pub const CULL_BACK: u32 = 10;
    pub const ALPHA_TEST: u32 = 11;
    pub const ALPHA_REF: u32 = 12; // 8 bits
    pub const STAGE0_TEXTURE: u32 = 20;
    pub const STAGE1_LIGHTMAP: u32 = 21;
    pub const NORMALS: u32 = 22;
    pub const UV1: u32 = 23;
    pub const COLOURS: u32 = 24;
}

impl LegacyRenderState {
    /// The state as a 64-bit key: equal states give equal keys and the key
    /// decodes back ([`Self::from_pipeline_key`]). Opaque phases sort by
    /// it first.
    pub fn pipeline_key(&self) -> u64 {
        let (src, dst) = match self.blend {
            BlendMode::Opaque => (0, 0),
            BlendMode::Blend { src, dst } => (src as u64, dst as u64),
        };
        let flag = |on: bool, bit: u32| (on as u64) << bit;
        (src << bits::SRC)
            | (dst << bits::DST)
            | flag(self.depth.test, bits::DEPTH_TEST)
            | flag(self.depth.write, bits::DEPTH_WRITE)
            | flag(self.cull == CullMode::Back, bits::CULL_BACK)
            | flag(self.alpha_test, bits::ALPHA_TEST)
            | ((self.alpha_ref as u64) << bits::ALPHA_REF)
            | flag(self.stages[0].textured(), bits::STAGE0_TEXTURE)
            | flag(self.stages[1].textured(), bits::STAGE1_LIGHTMAP)
            | flag(self.vertex.normals, bits::NORMALS)
            | flag(self.vertex.uv1, bits::UV1)
            | flag(self.vertex.colours, bits::COLOURS)
    }

    /// The state a [`Self::pipeline_key`] was made from.
    pub fn from_pipeline_key(key: u64) -> Self {
        let on = |bit: u32| key >> bit & 1 == 1;
        let factor = |shift: u32| BlendFactor::from_d3d((key >> shift & 0xF) as u8);
        let blend = match (factor(bits::SRC), factor(bits::DST)) {
            (Some(src), Some(dst)) => BlendMode::Blend { src, dst },
            _ => BlendMode::Opaque,
        };
        let op = |textured: bool, otherwise: TextureOp| {
            if textured {
                TextureOp::Modulate
            } else {
                otherwise
            }
        };
        let textured = on(bits::STAGE0_TEXTURE);
        let stage0 = TextureStage {
            colour_op: op(textured, TextureOp::SelectCurrent),
            alpha_op: op(textured, TextureOp::SelectCurrent),
            uv_set: 0,
        };
        let stage1 = if on(bits::STAGE1_LIGHTMAP) {
            TextureStage {
                colour_op: TextureOp::Modulate,
                alpha_op: TextureOp::SelectCurrent,
                uv_set: 1,
            }
        } else {
            TextureStage::DISABLED
        };
        Self {
            stages: [stage0, stage1],
            blend,
            depth: DepthMode {
                test: on(bits::DEPTH_TEST),
                write: on(bits::DEPTH_WRITE),
            },
            cull: if on(bits::CULL_BACK) {
                CullMode::Back
            } else {
                CullMode::None
            },
            alpha_test: on(bits::ALPHA_TEST),
            alpha_ref: (key >> bits::ALPHA_REF & 0xFF) as u8,
            vertex: VertexFormat {
                normals: on(bits::NORMALS),
                uv1: on(bits::UV1),
                colours: on(bits::COLOURS),
            },
        }
    }

    /// The tome V phase of a draw in this state: blended terrain (the
    /// layer-2 overlay) is a material pass right after the opaque phases,
    /// other blended draws are transparent (back to front), alpha-tested
    /// ones follow the opaque phases, the rest are opaque terrain or opaque
    /// objects.
    pub fn render_phase(&self, terrain: bool) -> RenderPhase {
        match (self.blend, self.alpha_test, terrain) {
            (BlendMode::Blend { .. }, _, true) => RenderPhase::MaterialPasses,
            (BlendMode::Blend { .. }, _, false) => RenderPhase::Transparent,
            (_, true, _) => RenderPhase::AlphaTested,
            (_, false, true) => RenderPhase::OpaqueTerrain,
            (_, false, false) => RenderPhase::OpaqueObjects,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mat(version: u32, render_type: u32, blend: (u8, u8), alpha: f32) -> Mat0 {
        let mut m = Mat0::new(version, render_type << 2);
        (m.src_blend, m.dst_blend) = blend;
        m.alpha_raw = alpha.to_bits();
        m
    }

    #[test]
    fn d3d_blend_bytes_map_to_factors_and_unset_is_none() {
        assert_eq!(BlendFactor::from_d3d(5), Some(BlendFactor::SrcAlpha));
        assert_eq!(BlendFactor::from_d3d(2), Some(BlendFactor::One));
        assert_eq!(BlendFactor::from_d3d(11), Some(BlendFactor::SrcAlphaSat));
        assert_eq!(BlendFactor::from_d3d(0), None);
        assert_eq!(BlendFactor::from_d3d(255), None);
    }

    #[test]
    fn an_opaque_material_writes_depth_and_is_an_opaque_object() {
        let s = MaterialInputs::of_batch(&mat(4, 0, (5, 6), 1.0), true, false, false).state();
        assert_eq!(s.blend, BlendMode::Opaque);
        assert_eq!(
            s.depth,
            DepthMode {
                test: true,
                write: true
            }
        );
        assert!(!s.alpha_test);
        assert_eq!(s.stages[0].colour_op, TextureOp::Modulate);
        assert_eq!(s.stages[1].colour_op, TextureOp::Disable);
        assert_eq!(s.cull, CullMode::None);
        assert_eq!(s.render_phase(false), RenderPhase::OpaqueObjects);
    }

    #[test]
    fn a_blended_material_uses_its_bytes_and_is_transparent() {
        let s = MaterialInputs::of_batch(&mat(3, 1, (2, 4), 0.5), true, false, false).state();
        assert_eq!(
            s.blend,
            BlendMode::Blend {
                src: BlendFactor::One,
                dst: BlendFactor::InvSrcColour
            }
        );
        assert!(!s.depth.write && s.depth.test);
        assert_eq!(s.render_phase(false), RenderPhase::Transparent);
    }

    #[test]
    fn unset_bytes_blend_as_alpha_and_low_alpha_blends_even_opaque_types() {
        let s = MaterialInputs::of_batch(&mat(1, 0, (255, 255), 0.25), true, false, false).state();
        assert_eq!(
            s.blend,
            BlendMode::Blend {
                src: BlendFactor::SrcAlpha,
                dst: BlendFactor::InvSrcAlpha
            }
        );
    }

    #[test]
    fn additive_forces_destination_one() {
        let s = MaterialInputs::of_batch(&mat(4, 3, (5, 6), 1.0), true, false, false).state();
        assert_eq!(
            s.blend,
            BlendMode::Blend {
                src: BlendFactor::SrcAlpha,
                dst: BlendFactor::One
            }
        );
    }

    #[test]
    fn alpha_tested_material_discards_below_the_reference() {
        let s = MaterialInputs::of_batch(&mat(4, 2, (5, 6), 1.0), true, false, false).state();
        assert!(s.alpha_test);
        assert_eq!(s.alpha_ref, ALPHA_REF);
        assert_eq!(s.blend, BlendMode::Opaque);
        assert_eq!(s.render_phase(false), RenderPhase::AlphaTested);
    }

    #[test]
    fn the_lightmap_stage_needs_uv1_and_a_lightmap() {
        let m = mat(4, 0, (5, 6), 1.0);
        let lit = MaterialInputs::of_batch(&m, true, true, true).state();
        assert_eq!(lit.stages[1].uv_set, 1);
        assert!(lit.stages[1].textured());
        assert!(lit.vertex.uv1);
        let no_map = MaterialInputs::of_batch(&m, true, true, false).state();
        assert!(!no_map.stages[1].textured());
        let no_uv = MaterialInputs::of_batch(&m, true, false, true).state();
        assert!(!no_uv.stages[1].textured());
        assert_ne!(lit.pipeline_key(), no_map.pipeline_key());
    }

    #[test]
    fn untextured_stage_zero_selects_the_lit_colour() {
        let s = MaterialInputs::of_batch(&mat(1, 0, (255, 255), 1.0), false, false, false).state();
        assert_eq!(s.stages[0].colour_op, TextureOp::SelectCurrent);
        assert!(!s.stages[0].textured());
    }

    #[test]
    fn terrain_layer_one_is_opaque_terrain_with_back_faces_culled() {
        let s = MaterialInputs::terrain_layer(false, true).state();
        assert_eq!(s.cull, CullMode::Back);
        assert!(s.vertex.colours && s.stages[0].textured());
        assert_eq!(s.blend, BlendMode::Opaque);
        assert!(s.depth.test && s.depth.write);
        assert_eq!(s.render_phase(true), RenderPhase::OpaqueTerrain);
    }

    #[test]
    fn terrain_layer_two_blends_by_alpha_over_it_without_depth_writes() {
        let s = MaterialInputs::terrain_layer(true, true).state();
        assert_eq!(
            s.blend,
            BlendMode::Blend {
                src: BlendFactor::SrcAlpha,
                dst: BlendFactor::InvSrcAlpha
            }
        );
        assert!(s.depth.test && !s.depth.write && !s.alpha_test);
        assert_eq!(s.cull, CullMode::Back);
        assert_eq!(s.render_phase(true), RenderPhase::MaterialPasses);
        assert_eq!(s.render_phase(false), RenderPhase::Transparent);
    }

    #[test]
    fn every_state_round_trips_through_its_pipeline_key() {
        let mut keys = std::collections::HashSet::new();
        for render_type in 0..5 {
            for blend in [(5, 6), (2, 2), (255, 255), (1, 11)] {
                for alpha in [1.0, 0.5] {
                    for flags in 0..8u8 {
                        let m = mat(4, render_type, blend, alpha);
                        let s = MaterialInputs::of_batch(
                            &m,
                            flags & 1 != 0,
                            flags & 2 != 0,
                            flags & 4 != 0,
                        )
                        .state();
                        let key = s.pipeline_key();
                        assert_eq!(LegacyRenderState::from_pipeline_key(key), s, "{key:#x}");
                        keys.insert((key, s));
                    }
                }
            }
        }
        // Distinct states never share a key.
        let distinct_keys: std::collections::HashSet<u64> = keys.iter().map(|k| k.0).collect();
        assert_eq!(distinct_keys.len(), keys.len());
        for (overlay, textured) in [(false, false), (false, true), (true, true)] {
            let terrain = MaterialInputs::terrain_layer(overlay, textured).state();
            assert_eq!(
                LegacyRenderState::from_pipeline_key(terrain.pipeline_key()),
                terrain
            );
        }
    }
}
