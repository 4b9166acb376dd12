//! Draw a tessellation as SVG, to look at it:
//! `cargo run -p tessellator --example svg -- tri|tri2|quad|quad2 integer|pow2|fractional_odd|fractional_even FACTOR [INSIDE] > t.svg`
//! (`tri` and `quad` use FACTOR on every edge; `tri2` and `quad2` vary the edges).
use tessellator::{tessellate, OutputPrimitive, Partitioning, TessFactors};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let part = match args.get(1).map(String::as_str) {
        Some("integer") => Partitioning::Integer,
        Some("pow2") => Partitioning::Pow2,
        Some("fractional_even") => Partitioning::FractionalEven,
        _ => Partitioning::FractionalOdd,
    };
    let f: f32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3.5);
    let i: f32 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(f);
    let (factors, tri) = match args.first().map(String::as_str) {
        Some("tri") => (TessFactors::Tri { edges: [f, f, f], inside: i }, true),
        Some("tri2") => (TessFactors::Tri { edges: [f, f * 0.5, f], inside: i }, true),
        Some("quad") => (TessFactors::Quad { edges: [f; 4], inside: [i; 2] }, false),
        _ => (TessFactors::Quad { edges: [f, f * 0.5, f, 1.0], inside: [i, i * 0.7] }, false),
    };
    let t = tessellate(part, OutputPrimitive::TriangleCw, &factors).unwrap();
    let xy = |k: u32| {
        let p = t.points[k as usize];
        if tri {
            // u corner at the bottom left, v at the bottom right, w at the top.
            let (x, y) = (p.v + 0.5 * p.w, 1.0 - p.w * 0.866);
            (10.0 + 480.0 * x, 10.0 + 480.0 * y)
        } else {
            (10.0 + 480.0 * p.u, 10.0 + 480.0 * p.v)
        }
    };
    println!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="500" height="500"><rect width="500" height="500" fill="white"/>"#
    );
    for tri in t.indices.chunks(3) {
        let pts: Vec<String> = tri
            .iter()
            .map(|&k| {
                let (x, y) = xy(k);
                format!("{x:.2},{y:.2}")
            })
            .collect();
        println!(r#"<polygon points="{}" fill="lightblue" stroke="black" stroke-width="0.7"/>"#, pts.join(" "));
    }
    println!("</svg>");
}
