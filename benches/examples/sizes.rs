//! Prints the heap footprint of a parsed module by table.
use nvpass_benches::heap::{self, CountingAlloc};
use nvpass_ir::Module;
use std::mem::size_of;

#[global_allocator]
static A: CountingAlloc = CountingAlloc;

fn mb(b: usize) -> f64 {
    b as f64 / 1048576.0
}

fn main() {
    let path = std::env::args().nth(1).expect("file");
    let src = std::fs::read(&path).unwrap();
    let before = heap::reset_peak();
    let m: Module = nvpass_ir::parse_module(&src).unwrap();
    let whole_peak = heap::peak() - before + src.len();
    println!(
        "heap: input {:.1} MB, module {:.1} MB, parse peak over input {:.1} MB",
        mb(src.len()),
        mb(heap::in_use() - before),
        mb(heap::peak() - before)
    );
    // The same text handed to a ModuleReader in 256 KiB pieces, as the CLI
    // reads a file: only the unparsed tail is held.
    {
        let src = &src;
        let base = heap::reset_peak();
        let mut r = nvpass_ir::ModuleReader::new();
        let ok = src.chunks(256 << 10).all(|c| r.push(c));
        let m2 = if ok { r.finish() } else { None };
        println!(
            "read in 256 KiB pieces: {}, heap peak {:.1} MB with the text (whole text: {:.1} MB)",
            if m2.is_some() {
                "ok"
            } else {
                "fell back to whole-text parsing"
            },
            mb(heap::peak() - base),
            mb(whole_peak)
        );
    }
    let base = heap::reset_peak();
    let mut chunks = 0usize;
    nvpass_ir::print::print_module_chunked(&m, &mut |c: &[u8]| chunks = chunks.max(c.len()));
    println!(
        "print (chunked) peak {:.1} MB, largest chunk {:.1} MB",
        mb(heap::peak() - base),
        mb(chunks)
    );
    let users: usize = m.values.keys().map(|v| m.users(v).len()).sum();
    let vops: usize = m.values.keys().map(|v| m.value_ops(v).len()).sum();
    let iops: usize = m.insts.values().map(|d| d.ops.len()).sum();
    let nusers = m.values.keys().filter(|&v| m.users(v).len() > 1).count();
    println!("input {} bytes", src.len());
    println!(
        "values {} x {} = {}",
        m.values.len(),
        size_of::<nvpass_ir::value::ValueData>(),
        m.values.len() * size_of::<nvpass_ir::value::ValueData>()
    );
    println!(
        "  uses {} x {} = {}, {} values with more than one (pooled)",
        users,
        size_of::<nvpass_ir::value::Use>(),
        users * size_of::<nvpass_ir::value::Use>(),
        nusers
    );
    println!(
        "  value ops {} x {} (boxed)",
        vops,
        size_of::<nvpass_ir::value::Operand>()
    );
    println!(
        "insts {} x {} = {}",
        m.insts.len(),
        size_of::<nvpass_ir::inst::InstData>(),
        m.insts.len() * size_of::<nvpass_ir::inst::InstData>()
    );
    println!(
        "  inst operands {} x {} in one pool",
        iops,
        size_of::<nvpass_ir::value::Operand>()
    );
    let calls = m.insts.values().filter(|i| i.call().is_some()).count();
    println!(
        "  calls {} x {}",
        calls,
        size_of::<nvpass_ir::inst::CallData>()
    );
    let pattrs: usize = m
        .insts
        .values()
        .filter_map(|i| i.call())
        .map(|c| c.param_attrs.capacity() * size_of::<nvpass_ir::attr::AttrSet>())
        .sum();
    println!("  call param attrs {}", pattrs);
    let fparams: usize = m
        .funcs
        .values()
        .map(|f| f.params.capacity() * size_of::<nvpass_ir::module::Param>())
        .sum();
    println!("  func params {}", fparams);
    println!(
        "blocks {} x {}",
        m.blocks.len(),
        size_of::<nvpass_ir::module::BlockData>()
    );
    println!(
        "funcs {} x {}",
        m.funcs.len(),
        size_of::<nvpass_ir::module::FuncData>()
    );
    println!(
        "mds {} x {}",
        m.mds.len(),
        size_of::<nvpass_ir::metadata::MdNode>()
    );
    let mdspill: usize = m
        .mds
        .values()
        .map(|n| match &n.kind {
            nvpass_ir::metadata::MdKind::Tuple(v) | nvpass_ir::metadata::MdKind::ArgList(v) => {
                std::mem::size_of_val(&v[..])
            }
            nvpass_ir::metadata::MdKind::Specialized { fields, .. } => {
                std::mem::size_of_val(&fields[..])
            }
            nvpass_ir::metadata::MdKind::Location(_) => 0,
        })
        .sum();
    println!("  md heap {}", mdspill);
    println!("strings {}", m.strings.len());
}
