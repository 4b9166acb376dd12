//! Geometry shaders: one invocation per input primitive and instance, and
//! what the invocations emit turned into the primitives D3D rasterises.
//! Strips are cut into lists the way D3D orders a strip's primitives
//! (triangle `k` of a strip is `k, k+1, k+2` for even `k` and `k, k+2, k+1`
//! for odd `k`, which keeps every triangle's winding and its first vertex
//! the strip's vertex `k`); a `cut` ends the strip.

use dxbc::spec::PrimitiveTopology;

use crate::compile::Code;
use crate::error::{Error, ErrorKind, Result};
use crate::exec::{run, Emitted, Grouping, Lane, Limits, Stats};
use crate::resources::Bindings;
use crate::Sys;

/// Invocations run together (each alone: a geometry shader has no
/// derivatives or barriers); bounds the lanes' registers.
const LANES_PER_RUN: usize = 64;

/// An input primitive: its `SV_PrimitiveID` and its vertices' input
/// registers, vertex-major (`v[i][r]` at `i * code.input_regs + r`).
#[derive(Clone, Debug, PartialEq)]
pub struct GsInput {
    /// `SV_PrimitiveID`.
    pub primitive_id: u32,
    /// The input registers.
    pub registers: Vec<[u32; 4]>,
}

/// A primitive one invocation emitted: a point, a line or a triangle,
/// each vertex its output registers at the `emit`.
#[derive(Clone, Debug, PartialEq)]
pub struct GsPrimitive {
    /// The stream it was emitted to.
    pub stream: u32,
    /// The input primitive's `SV_PrimitiveID`.
    pub input_primitive: u32,
    /// 1, 2 or 3 vertices.
    pub vertices: Vec<Vec<[u32; 4]>>,
}

/// Runs the geometry shader `code` over `inputs`, `code.gs.instances`
/// times each, and returns the primitives they emitted in D3D's order: by
/// input primitive, then instance, then emission.
pub fn run_geometry(
    code: &Code,
    b: &mut Bindings,
    inputs: &[GsInput],
    limits: Limits,
) -> Result<(Vec<GsPrimitive>, Stats)> {
    let at = code.ops.first().map_or(0, |o| o.offset);
    let per = match code.gs.output {
        PrimitiveTopology::Pointlist => 1,
        PrimitiveTopology::Linestrip => 2,
        PrimitiveTopology::Trianglestrip => 3,
        other => {
            return Err(Error::new(ErrorKind::Malformed, format!("geometry shader output topology {other:?}"), at));
        }
    };
    let instances = code.gs.instances.max(1);
    let invocations: Vec<(usize, u32)> = (0..inputs.len()).flat_map(|p| (0..instances).map(move |i| (p, i))).collect();
    let mut out = Vec::new();
    let mut stats = Stats::default();
    for chunk in invocations.chunks(LANES_PER_RUN) {
        let mut lanes: Vec<Lane> = chunk
            .iter()
            .map(|&(p, instance)| {
                let mut lane = Lane { inputs: inputs[p].registers.clone(), ..Lane::default() };
                lane.sys[Sys::PrimitiveId as usize] = [inputs[p].primitive_id; 4];
                lane.sys[Sys::GsInstance as usize] = [instance; 4];
                lane
            })
            .collect();
        let budget = limits.budget.saturating_sub(stats.instructions);
        let s = run(code, b, &mut lanes, Grouping::Independent, Limits { budget })?;
        stats.instructions += s.instructions;
        for (lane, &(p, _)) in lanes.iter().zip(chunk) {
            out.extend(primitives(&lane.emitted, per, inputs[p].primitive_id));
        }
    }
    Ok((out, stats))
}

/// The primitives of `per` vertices (1, 2 or 3) one invocation's emitted
/// vertices form, stream by stream.
fn primitives(emitted: &[Emitted], per: usize, input_primitive: u32) -> Vec<GsPrimitive> {
    // The open strip of each stream (streams 0 to 3).
    let mut strips: [Vec<&Emitted>; 4] = Default::default();
    let mut out = Vec::new();
    for e in emitted {
        let Some(strip) = strips.get_mut(e.stream as usize) else { continue };
        strip.push(e);
        if strip.len() >= per {
            let k = strip.len() - per;
            let order: &[usize] = match per {
                1 => &[0],
                2 => &[0, 1],
                _ if k % 2 == 0 => &[0, 1, 2],
                _ => &[0, 2, 1],
            };
            out.push(GsPrimitive {
                stream: e.stream,
                input_primitive,
                vertices: order.iter().map(|&i| strip[k + i].outputs.clone()).collect(),
            });
        }
        if e.cut_after {
            strip.clear();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(n: u32, stream: u32, cut_after: bool) -> Emitted {
        Emitted { stream, outputs: vec![[n; 4]], cut_after }
    }

    fn ids(p: &GsPrimitive) -> Vec<u32> {
        p.vertices.iter().map(|v| v[0][0]).collect()
    }

    /// The D3D11 functional spec's triangle strip: odd triangles swap their
    /// last two vertices, so 0 1 2 3 4 gives (0 1 2) (1 3 2) (2 3 4).
    #[test]
    fn a_triangle_strip_becomes_triangles_in_d3d_order() {
        let e: Vec<Emitted> = (0..5).map(|n| vertex(n, 0, false)).collect();
        let p = primitives(&e, 3, 7);
        assert_eq!(p.iter().map(ids).collect::<Vec<_>>(), vec![vec![0, 1, 2], vec![1, 3, 2], vec![2, 3, 4]]);
        assert!(p.iter().all(|p| p.input_primitive == 7 && p.stream == 0));
    }

    #[test]
    fn a_cut_ends_the_strip_and_streams_keep_their_own() {
        let e = vec![
            vertex(0, 0, false),
            vertex(1, 0, false),
            vertex(10, 1, false),
            vertex(2, 0, true),
            vertex(3, 0, false),
            vertex(11, 1, false),
            vertex(4, 0, false),
        ];
        let lines = primitives(&e, 2, 0);
        let by_stream = |s: u32| lines.iter().filter(|p| p.stream == s).map(ids).collect::<Vec<_>>();
        assert_eq!(by_stream(0), vec![vec![0, 1], vec![1, 2], vec![3, 4]]);
        assert_eq!(by_stream(1), vec![vec![10, 11]]);
        let tris = primitives(&e, 3, 0);
        assert_eq!(tris.iter().map(ids).collect::<Vec<_>>(), vec![vec![0, 1, 2]]);
    }
}
