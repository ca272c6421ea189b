//! `Land.map`: the areal map of a level, an NRes holding exactly one entry of
//! type 12 (`reference/terrain-and-areal-map.md` §3, tome IV "Land.map").
//!
//! The payload is `attr1` areal records (56-byte prefix, `float3` vertices,
//! `EdgeLink8` links, polygon blocks), then the cell grid: `cellsX`, `cellsY`
//! and per cell (x outer, y inner; FACTS.md) a `u16` hit count and that many
//! `u16` areal ids. The runtime keeps the grid as one packed word per cell
//! (high 10 bits hit count, low 22 bits start in a shared id pool): that is
//! the form [`CellGrid`] stores.

use super::geom::{Inside, point_in_polygon};
use super::{EntryMeta, build_container, container_entries, rewrite_container};
use crate::archive::Mode;
use crate::archive::nres::Nres;
use crate::cursor::Cursor;
use crate::error::{FormatError, Result};

/// Format name used in errors.
pub const FORMAT: &str = "Land.map";
/// Entry type of the areal map.
pub const TYPE_AREAL_MAP: u32 = 12;
/// Entry name of retail maps.
pub const ENTRY_NAME: &[u8] = b"ArealMap";
/// Size of the fixed prefix of an areal record.
pub const PREFIX_SIZE: usize = 56;
/// Size of one edge link.
pub const LINK_SIZE: usize = 8;
/// Links per polygon block, besides one per vertex.
pub const LINKS_PER_POLYGON: usize = 3;
/// Bits of the hit count in a packed cell word.
pub const HIT_COUNT_BITS: u32 = 10;
/// Bits of the start index in a packed cell word.
pub const START_BITS: u32 = 22;
/// The start index mask of a packed cell word.
pub const START_MASK: u32 = (1 << START_BITS) - 1;
/// Largest hit count the packed form holds.
pub const MAX_HITS: u32 = (1 << HIT_COUNT_BITS) - 1;

/// The class-word bits all set on a lake areal.
pub const LAKE_CLASS_BITS: u32 = 0xF0;

/// `(area_ref, edge_ref)`; `(-1, -1)` = no neighbour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct EdgeLink {
    pub area_ref: i32,
    pub edge_ref: i32,
}

impl EdgeLink {
    /// The "no neighbour" link.
    pub const NONE: EdgeLink = EdgeLink {
        area_ref: -1,
        edge_ref: -1,
    };

    /// `(areal, edge)` across this link, `None` for [`EdgeLink::NONE`].
    pub fn target(self) -> Option<(u32, u32)> {
        (self != Self::NONE).then_some((self.area_ref as u32, self.edge_ref as u32))
    }
}

/// A polygon block: `u32 n`, then `n` float3 points. The block is
/// `4 * (3n + 1)` bytes counting the `n` word (the loader's arithmetic);
/// no retail areal has one, so the points are typed only as float3.
#[derive(Debug, Clone, PartialEq)]
pub struct PolygonBlock {
    pub points: Vec<[f32; 3]>,
}

/// One areal record.
#[derive(Debug, Clone, PartialEq)]
pub struct Areal {
    /// +0: anchor (centre) point.
    pub anchor: [f32; 3],
    /// +12: zero in retail, kept.
    pub reserved_12: f32,
    /// +16: precomputed area.
    pub area_metric: f32,
    /// +20: unit normal.
    pub normal: [f32; 3],
    /// +32
    pub logic_flag: u32,
    /// +36: zero in retail, kept.
    pub reserved_36: u32,
    /// +40
    pub class_id: u32,
    /// +44: zero in retail, kept.
    pub reserved_44: u32,
    /// Boundary vertices; edge `i` runs from vertex `i` to `i + 1` (wrapping).
    pub vertices: Vec<[f32; 3]>,
    /// One link per boundary edge.
    pub links: Vec<EdgeLink>,
    /// `3 * polygons.len()` links after the boundary links.
    pub polygon_links: Vec<EdgeLink>,
    pub polygons: Vec<PolygonBlock>,
}

impl Areal {
    /// The boundary in the ground plane.
    pub fn ground_polygon(&self) -> Vec<[f64; 2]> {
        self.vertices
            .iter()
            .map(|v| [v[0] as f64, v[1] as f64])
            .collect()
    }

    /// Whether units walk on it: its first flag word is not 0 (the
    /// original builds no links for an areal whose word is 0, openparkan
    /// docs/24-motion "The global path").
    pub fn is_walkable(&self) -> bool {
        self.logic_flag != 0
    }

    /// Whether it is a lake: all of [`LAKE_CLASS_BITS`] set in its class
    /// word (docs/24-motion "Lakes in the areal map").
    pub fn is_lake(&self) -> bool {
        self.class_id & LAKE_CLASS_BITS == LAKE_CLASS_BITS
    }

    /// The ends of boundary edge `edge` in the ground plane.
    pub fn edge(&self, edge: usize) -> Option<([f64; 2], [f64; 2])> {
        let n = self.vertices.len();
        let (a, b) = (self.vertices.get(edge)?, self.vertices[(edge + 1) % n]);
        Some(([a[0] as f64, a[1] as f64], [b[0] as f64, b[1] as f64]))
    }

    /// Midpoint of boundary edge `edge` in the ground plane.
    pub fn edge_midpoint(&self, edge: usize) -> Option<[f64; 2]> {
        let (a, b) = self.edge(edge)?;
        Some([(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0])
    }
}

/// The cell grid in its packed runtime form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellGrid {
    pub cells_x: u32,
    pub cells_y: u32,
    /// One word per cell, index `x * cells_y + y`: hit count << 22 | start.
    pub packed: Vec<u32>,
    /// All cell lists back to back (file order).
    pub pool: Vec<u16>,
}

impl CellGrid {
    /// Packs per-cell lists given in file order (x outer, y inner).
    pub fn from_lists(cells_x: u32, cells_y: u32, lists: &[Vec<u16>]) -> Result<CellGrid> {
        let expected = (cells_x as u64).checked_mul(cells_y as u64);
        if expected != Some(lists.len() as u64) || lists.is_empty() {
            return Err(FormatError::invalid(
                FORMAT,
                0,
                format!("{cells_x} x {cells_y} cell lists (at least one)"),
                lists.len(),
            ));
        }
        let mut packed = Vec::with_capacity(lists.len());
        let mut pool = Vec::new();
        for list in lists {
            packed.push(pack_cell(pool.len(), list.len(), 0)?);
            pool.extend_from_slice(list);
        }
        Ok(CellGrid {
            cells_x,
            cells_y,
            packed,
            pool,
        })
    }

    /// Areal ids listed in cell (x, y); empty outside the grid.
    pub fn cell(&self, x: u32, y: u32) -> &[u16] {
        if x >= self.cells_x || y >= self.cells_y {
            return &[];
        }
        let Some(&word) = self
            .packed
            .get((x as usize) * (self.cells_y as usize) + y as usize)
        else {
            return &[];
        };
        let (start, count) = unpack_cell(word);
        self.pool.get(start..start + count).unwrap_or(&[])
    }

    /// The largest hit count of any cell.
    pub fn max_hits(&self) -> usize {
        self.packed
            .iter()
            .map(|&w| unpack_cell(w).1)
            .max()
            .unwrap_or(0)
    }
}

/// Packs a cell: hit count in the high 10 bits, start in the low 22.
pub fn pack_cell(start: usize, count: usize, at: usize) -> Result<u32> {
    if count > MAX_HITS as usize || start > START_MASK as usize {
        return Err(FormatError::invalid(
            FORMAT,
            at as u64,
            format!(
                "a cell list the packed form holds (count <= {MAX_HITS}, start <= {START_MASK})"
            ),
            format!("count {count} at start {start}"),
        ));
    }
    Ok(((count as u32) << START_BITS) | start as u32)
}

/// `(start, count)` of a packed cell word.
pub fn unpack_cell(word: u32) -> (usize, usize) {
    ((word & START_MASK) as usize, (word >> START_BITS) as usize)
}

/// The typed view of a whole `Land.map`.
#[derive(Debug, Clone, PartialEq)]
pub struct LandMap {
    pub areals: Vec<Areal>,
    pub grid: CellGrid,
    /// Index of the type 12 entry in `entries`.
    pub map_entry: usize,
    /// Every entry in directory order; `None` payload for the type 12 entry
    /// (written from `areals` and `grid`), raw bytes for any other.
    pub entries: Vec<(EntryMeta, Option<Vec<u8>>)>,
}

impl LandMap {
    /// Parses a whole `Land.map` file (`mode` applies to the NRes container).
    pub fn parse(data: &[u8], mode: Mode) -> Result<LandMap> {
        let nres = Nres::parse(data, mode)?;
        Self::from_entries(&container_entries(&nres))
    }

    /// Reads the map from container entries: exactly one of type 12.
    pub fn from_entries(entries: &[(EntryMeta, &[u8])]) -> Result<LandMap> {
        let mut found = entries
            .iter()
            .enumerate()
            .filter(|(_, (m, _))| m.type_id == TYPE_AREAL_MAP);
        let (index, (meta, payload)) = found
            .next()
            .ok_or_else(|| FormatError::missing(FORMAT, "the type 12 entry"))?;
        if let Some((second, _)) = found.next() {
            return Err(FormatError::invalid(
                FORMAT,
                0,
                "exactly one type 12 entry",
                "a second one",
            )
            .in_entry(second, entries[second].0.display_name()));
        }
        let (areals, grid) = parse_payload(meta.attr1, payload)
            .map_err(|e| e.in_entry(index, meta.display_name()))?;
        Ok(LandMap {
            areals,
            grid,
            map_entry: index,
            entries: entries
                .iter()
                .enumerate()
                .map(|(i, (m, p))| (m.clone(), (i != index).then(|| p.to_vec())))
                .collect(),
        })
    }

    /// The entries to write (the type 12 payload serialized, its `attr1` set
    /// to the areal count).
    pub fn to_entries(&self) -> Result<Vec<(EntryMeta, Vec<u8>)>> {
        self.entries
            .iter()
            .map(|(meta, raw)| match raw {
                Some(bytes) => Ok((meta.clone(), bytes.clone())),
                None => {
                    let mut meta = meta.clone();
                    meta.attr1 = u32::try_from(self.areals.len())
                        .map_err(|_| FormatError::overflow(FORMAT, 0, "areal count"))?;
                    Ok((meta, self.payload()?))
                }
            })
            .collect()
    }

    /// A canonical NRes file.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        build_container(&self.to_entries()?)
    }

    /// Writes the map back into the archive it was read from, keeping every
    /// container byte: byte-identical for unmodified data.
    pub fn rewrite(&self, original: &Nres<'_>) -> Result<Vec<u8>> {
        rewrite_container(original, &self.to_entries()?, FORMAT)
    }

    /// The type 12 payload.
    pub fn payload(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        for (i, a) in self.areals.iter().enumerate() {
            write_areal(&mut out, a).map_err(|e| e.in_entry(i, "areal"))?;
        }
        out.extend(self.grid.cells_x.to_le_bytes());
        out.extend(self.grid.cells_y.to_le_bytes());
        for &word in &self.grid.packed {
            let (start, count) = unpack_cell(word);
            let ids = self.grid.pool.get(start..start + count).ok_or_else(|| {
                FormatError::invalid(
                    FORMAT,
                    0,
                    "cell ranges inside the id pool",
                    format!("{start}+{count}"),
                )
            })?;
            out.extend((count as u16).to_le_bytes());
            out.extend(ids.iter().flat_map(|id| id.to_le_bytes()));
        }
        Ok(out)
    }
}

fn count_u32(n: usize, what: &str) -> Result<[u8; 4]> {
    u32::try_from(n)
        .map(u32::to_le_bytes)
        .map_err(|_| FormatError::overflow(FORMAT, 0, what.to_string()))
}

fn write_areal(out: &mut Vec<u8>, a: &Areal) -> Result<()> {
    if a.links.len() != a.vertices.len()
        || a.polygon_links.len() != LINKS_PER_POLYGON * a.polygons.len()
    {
        return Err(FormatError::invalid(
            FORMAT,
            0,
            "one link per vertex and three per polygon block",
            format!(
                "{} links for {} vertices, {} for {} polygons",
                a.links.len(),
                a.vertices.len(),
                a.polygon_links.len(),
                a.polygons.len()
            ),
        ));
    }
    for v in a
        .anchor
        .iter()
        .chain([&a.reserved_12, &a.area_metric])
        .chain(&a.normal)
    {
        out.extend(v.to_le_bytes());
    }
    for v in [a.logic_flag, a.reserved_36, a.class_id, a.reserved_44] {
        out.extend(v.to_le_bytes());
    }
    out.extend(count_u32(a.vertices.len(), "vertex count")?);
    out.extend(count_u32(a.polygons.len(), "polygon count")?);
    out.extend(
        a.vertices
            .iter()
            .flat_map(|v| v.iter().flat_map(|c| c.to_le_bytes())),
    );
    for l in a.links.iter().chain(&a.polygon_links) {
        out.extend(l.area_ref.to_le_bytes());
        out.extend(l.edge_ref.to_le_bytes());
    }
    for p in &a.polygons {
        out.extend(count_u32(p.points.len(), "polygon point count")?);
        out.extend(
            p.points
                .iter()
                .flat_map(|v| v.iter().flat_map(|c| c.to_le_bytes())),
        );
    }
    Ok(())
}

/// Parses the type 12 payload of `areal_count` areals (from `attr1`).
pub fn parse_payload(areal_count: u32, payload: &[u8]) -> Result<(Vec<Areal>, CellGrid)> {
    let mut c = Cursor::new(payload, FORMAT);
    if areal_count == 0 {
        return Err(c.invalid_at(0, "an areal count (attr1) above 0", 0));
    }
    let count = c.checked_count(areal_count as u64, PREFIX_SIZE, "areals")?;
    let mut areals = Vec::with_capacity(count);
    for _ in 0..count {
        areals.push(read_areal(&mut c)?);
    }
    let grid = read_grid(&mut c, count)?;
    c.expect_end()?;
    check_links(&areals)?;
    Ok((areals, grid))
}

fn read_f32x3(c: &mut Cursor<'_>) -> Result<[f32; 3]> {
    Ok([c.f32()?, c.f32()?, c.f32()?])
}

fn read_points(c: &mut Cursor<'_>, count: u32, what: &str) -> Result<Vec<[f32; 3]>> {
    let n = c.checked_count(count as u64, 12, what)?;
    (0..n).map(|_| read_f32x3(c)).collect()
}

fn read_areal(c: &mut Cursor<'_>) -> Result<Areal> {
    let anchor = read_f32x3(c)?;
    let reserved_12 = c.f32()?;
    let area_metric = c.f32()?;
    let normal = read_f32x3(c)?;
    let [logic_flag, reserved_36, class_id, reserved_44] = [c.u32()?, c.u32()?, c.u32()?, c.u32()?];
    let vertex_count = c.u32()?;
    let poly_count = c.u32()?;
    let vertices = read_points(c, vertex_count, "areal vertices")?;
    let link_count = (poly_count as u64)
        .checked_mul(LINKS_PER_POLYGON as u64)
        .and_then(|n| n.checked_add(vertex_count as u64))
        .ok_or_else(|| FormatError::overflow(FORMAT, c.pos() as u64, "link count"))?;
    let link_count = c.checked_count(link_count, LINK_SIZE, "edge links")?;
    let mut links = Vec::with_capacity(link_count);
    for _ in 0..link_count {
        links.push(EdgeLink {
            area_ref: c.i32()?,
            edge_ref: c.i32()?,
        });
    }
    let polygon_links = links.split_off(vertices.len());
    // Each block is at least its 4-byte count.
    let blocks = c.checked_count(poly_count as u64, 4, "polygon blocks")?;
    let mut polygons = Vec::with_capacity(blocks);
    for _ in 0..blocks {
        let n = c.u32()?;
        polygons.push(PolygonBlock {
            points: read_points(c, n, "polygon block points")?,
        });
    }
    Ok(Areal {
        anchor,
        reserved_12,
        area_metric,
        normal,
        logic_flag,
        reserved_36,
        class_id,
        reserved_44,
        vertices,
        links,
        polygon_links,
        polygons,
    })
}

fn read_grid(c: &mut Cursor<'_>, areal_count: usize) -> Result<CellGrid> {
    let at = c.pos();
    let (cells_x, cells_y) = (c.u32()?, c.u32()?);
    if cells_x == 0 || cells_y == 0 {
        return Err(c.invalid_at(
            at,
            "cellsX > 0 and cellsY > 0",
            format!("{cells_x} x {cells_y}"),
        ));
    }
    let cells = (cells_x as u64)
        .checked_mul(cells_y as u64)
        .ok_or_else(|| FormatError::overflow(FORMAT, at as u64, "cellsX * cellsY"))?;
    // Every cell is at least its 2-byte hit count.
    let cells = c.checked_count(cells, 2, "grid cells")?;
    let mut packed = Vec::with_capacity(cells);
    // The ids take what is left after the hit counts.
    let mut pool = Vec::with_capacity((c.remaining() - 2 * cells) / 2);
    for _ in 0..cells {
        let at = c.pos();
        let hits = c.u16()? as usize;
        packed.push(pack_cell(pool.len(), hits, at)?);
        for _ in 0..hits {
            let id_at = c.pos();
            let id = c.u16()?;
            if id as usize >= areal_count {
                return Err(c.invalid_at(
                    id_at,
                    format!("a cell areal id below {areal_count}"),
                    id,
                ));
            }
            pool.push(id);
        }
    }
    Ok(CellGrid {
        cells_x,
        cells_y,
        packed,
        pool,
    })
}

/// Every link is `(-1, -1)` or names an existing areal and one of its edges:
/// a boundary link an edge below the target's vertex count, a polygon link
/// one of the target's links.
fn check_links(areals: &[Areal]) -> Result<()> {
    for (i, a) in areals.iter().enumerate() {
        let all = a
            .links
            .iter()
            .map(|l| (l, true))
            .chain(a.polygon_links.iter().map(|l| (l, false)));
        for (k, (link, boundary)) in all.enumerate() {
            if *link == EdgeLink::NONE {
                continue;
            }
            let target = usize::try_from(link.area_ref)
                .ok()
                .and_then(|t| areals.get(t));
            let edges = target.map(|t| {
                if boundary {
                    t.vertices.len()
                } else {
                    t.links.len() + t.polygon_links.len()
                }
            });
            let edge_ok =
                usize::try_from(link.edge_ref).is_ok_and(|e| edges.is_some_and(|n| e < n));
            if target.is_none() || !edge_ok {
                return Err(FormatError::invalid(
                    FORMAT,
                    0,
                    format!(
                        "areal {i} link {k}: (-1, -1) or an existing areal and one of its edges"
                    ),
                    format!("({}, {})", link.area_ref, link.edge_ref),
                ));
            }
        }
    }
    Ok(())
}

/// Where a ground point lies in the areal map.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridFrame {
    /// Ground-plane bounds of all areal vertices.
    pub min: [f64; 2],
    pub max: [f64; 2],
    pub cells: [u32; 2],
}

impl GridFrame {
    /// The grid spans the ground-plane bounds of all areal vertices, split
    /// into `cellsX x cellsY` equal cells (the file stores no frame; retail
    /// areals span the terrain exactly). `None` without vertices or cells.
    pub fn of(map: &LandMap) -> Option<GridFrame> {
        if map.grid.cells_x == 0 || map.grid.cells_y == 0 {
            return None;
        }
        let mut pts = map.areals.iter().flat_map(|a| &a.vertices);
        let first = pts.next()?;
        let mut min = [first[0] as f64, first[1] as f64];
        let mut max = min;
        for v in pts {
            for k in 0..2 {
                min[k] = min[k].min(v[k] as f64);
                max[k] = max[k].max(v[k] as f64);
            }
        }
        Some(GridFrame {
            min,
            max,
            cells: [map.grid.cells_x, map.grid.cells_y],
        })
    }

    /// The cell of a ground point, `None` outside the frame.
    pub fn cell_of(&self, p: [f64; 2]) -> Option<(u32, u32)> {
        let mut out = [0u32; 2];
        for k in 0..2 {
            if !(p[k] >= self.min[k] && p[k] <= self.max[k]) {
                return None;
            }
            let span = self.max[k] - self.min[k];
            let f = if span > 0.0 {
                (p[k] - self.min[k]) / span * self.cells[k] as f64
            } else {
                0.0
            };
            out[k] = (f.floor() as u32).min(self.cells[k].saturating_sub(1));
        }
        Some((out[0], out[1]))
    }

    /// Ground-plane rectangle of cell (x, y).
    pub fn cell_rect(&self, x: u32, y: u32) -> ([f64; 2], [f64; 2]) {
        let size = [0, 1].map(|k| (self.max[k] - self.min[k]) / self.cells[k] as f64);
        let lo = [
            self.min[0] + size[0] * x as f64,
            self.min[1] + size[1] * y as f64,
        ];
        (lo, [lo[0] + size[0], lo[1] + size[1]])
    }
}

/// Point lookup: the areals containing a ground point, found through the
/// cell grid (only the candidates of one cell are tested).
#[derive(Debug, Clone)]
pub struct ArealLocator<'m> {
    pub map: &'m LandMap,
    pub frame: Option<GridFrame>,
}

impl<'m> ArealLocator<'m> {
    pub fn new(map: &'m LandMap) -> Self {
        Self {
            map,
            frame: GridFrame::of(map),
        }
    }

    /// The areal at ground point (x, y): among the cell's candidates whose
    /// polygon contains the point, an interior hit wins over a boundary hit,
    /// then the lowest id. `None` when no areal contains the point.
    pub fn areal_at(&self, x: f32, y: f32) -> Option<u32> {
        let p = [x as f64, y as f64];
        let (cx, cy) = self.frame?.cell_of(p)?;
        let mut best: Option<(bool, u32)> = None;
        for &id in self.map.grid.cell(cx, cy) {
            let Some(a) = self.map.areals.get(id as usize) else {
                continue;
            };
            let interior = match point_in_polygon(&a.ground_polygon(), p) {
                Inside::Outside => continue,
                Inside::Boundary => false,
                Inside::Interior => true,
            };
            let key = (interior, id as u32);
            best = Some(match best {
                Some((bi, bid)) if bi && !interior => (bi, bid),
                Some((bi, bid)) if bi == interior && bid < key.1 => (bi, bid),
                _ => key,
            });
        }
        best.map(|(_, id)| id)
    }
}
