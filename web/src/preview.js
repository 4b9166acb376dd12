// The WebGPU side of the live preview. It executes a plan built in Rust
// (preview_model::plan): every decision about what to bind, draw or
// dispatch is made there, and the native reference renderer executes the
// same plan with wgpu. This file only turns the plan into WebGPU calls,
// presents a colour target on the canvas and reads results back.
//
// Exposes window.__dxbcPreview for the browser tests and benchmarks: frames
// drawn, the last frame's time, the last read-backs and the frame they
// were taken after (readbackOf), and the frame count when the current plan
// was loaded (loadedAt: read-backs of its frames have readbackOf > loadedAt).

const FRAGMENT = 2, VERTEX = 1, COMPUTE = 4;

const stats = { frames: 0, lastFrameMs: 0, readbacks: [], readbackOf: -1, plan: null, loadedAt: 0 };
globalThis.__dxbcPreview = stats;

function scoped(device, f) {
  device.pushErrorScope('validation');
  device.pushErrorScope('out-of-memory');
  const v = f();
  return Promise.all([device.popErrorScope(), device.popErrorScope()]).then(([oom, val]) => {
    const e = val || oom;
    if (e) throw new Error(e.message);
    return v;
  });
}

const DISPLAY_WGSL = (t) => `
@group(0) @binding(0) var src: texture_2d<${t}>;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f {
  let size = textureDimensions(src);
  let c = min(vec2u(p.xy), size - 1u);
  let v = vec4f(textureLoad(src, c, 0));
  ${t === 'f32' ? 'return vec4f(clamp(v.rgb, vec3f(0.0), vec3f(1.0)), 1.0);'
                : 'return vec4f(clamp(v.rgb / 255.0, vec3f(0.0), vec3f(1.0)), 1.0);'}
}`;

function sampleKind(format) {
  if (format.endsWith('uint')) return 'u32';
  if (format.endsWith('sint')) return 'i32';
  return 'f32';
}

/** Opens the adapter and device; throws with a message when WebGPU is missing. */
export async function preview_create(canvas) {
  if (!globalThis.navigator || !navigator.gpu) throw new Error('this browser has no WebGPU (navigator.gpu is missing)');
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) throw new Error('WebGPU is present but offered no adapter');
  // The adapter's own limits, as the native renderer uses: D3D allows
  // 1024-thread groups and more resources than WebGPU's defaults.
  const requiredLimits = {};
  for (const k in adapter.limits) if (typeof adapter.limits[k] === 'number') requiredLimits[k] = adapter.limits[k];
  // Clip distances (SV_ClipDistance) are an optional WebGPU feature the translated WGSL enables.
  const requiredFeatures = ['clip-distances'].filter((f) => adapter.features.has(f));
  const device = await adapter.requestDevice({ requiredLimits, requiredFeatures });
  const ctx = canvas.getContext('webgpu');
  if (!ctx) throw new Error('the canvas gave no WebGPU context');
  const format = navigator.gpu.getPreferredCanvasFormat();
  ctx.configure({ device, format, alphaMode: 'opaque' });
  const info = adapter.info || {};
  const gpu = {
    device, ctx, format, canvas,
    adapter: [info.vendor, info.architecture, info.description].filter(Boolean).join(' ') || 'unknown adapter',
    display: {}, job: null, lost: null,
  };
  // A lost device (a driver reset, the GPU process restarting) does nothing
  // from then on: the page asks (preview_lost) and opens a new one.
  device.lost.then((l) => { gpu.lost = l.message || String(l.reason); });
  return gpu;
}

export function preview_adapter(gpu) { return gpu.adapter; }

/** Why the device was lost, or null while it works. */
export function preview_lost(gpu) { return gpu.lost; }

function displayPipeline(gpu, kind) {
  if (!gpu.display[kind]) {
    const module = gpu.device.createShaderModule({ code: DISPLAY_WGSL(kind) });
    gpu.display[kind] = gpu.device.createRenderPipeline({
      layout: 'auto',
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets: [{ format: gpu.format }] },
      primitive: { topology: 'triangle-list' },
    });
  }
  return gpu.display[kind];
}

async function compileInfo(module, label) {
  const info = await module.getCompilationInfo();
  const errs = info.messages.filter((m) => m.type === 'error');
  if (errs.length) throw new Error(`${label}: ${errs.map((m) => `line ${m.lineNum}: ${m.message}`).join('; ')}`);
}

/**
 * A multisampled texture input: texels cannot be written to one, so the
 * blob goes into a one-sample texture (r.source_format) and the plan's fill
 * module draws it into every sample.
 */
function fillMultisampled(d, module, r, texels) {
  const source = d.createTexture({ size: [r.width, r.height], format: r.source_format, usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
  d.queue.writeTexture({ texture: source }, texels, { bytesPerRow: r.bytes_per_row, rowsPerImage: r.height }, [r.width, r.height]);
  const tex = d.createTexture({ size: [r.width, r.height], format: r.format, sampleCount: r.samples,
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.RENDER_ATTACHMENT });
  const depth = r.format.startsWith('depth');
  const pipe = d.createRenderPipeline({
    layout: 'auto',
    vertex: { module, entryPoint: 'vs' },
    fragment: { module, entryPoint: 'fs', targets: depth ? [] : [{ format: r.format }] },
    ...(depth ? { depthStencil: { format: r.format, depthWriteEnabled: true, depthCompare: 'always' } } : {}),
    multisample: { count: r.samples },
  });
  const bg = d.createBindGroup({ layout: pipe.getBindGroupLayout(0), entries: [{ binding: 0, resource: source.createView() }] });
  const enc = d.createCommandEncoder();
  const view = tex.createView();
  const pass = enc.beginRenderPass(depth
    ? { colorAttachments: [], depthStencilAttachment: { view, depthLoadOp: 'clear', depthClearValue: 1, depthStoreOp: 'store' } }
    : { colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] }] });
  pass.setPipeline(pipe);
  pass.setBindGroup(0, bg);
  pass.draw(3);
  pass.end();
  d.queue.submit([enc.finish()]);
  return tex;
}

/** Bind groups (every index up to the highest used, empty between) and their pipeline layout. */
function makeGroups(d, items) {
  const count = items.reduce((n, x) => Math.max(n, x.group + 1), 0);
  const bgls = [];
  const groups = [];
  for (let g = 0; g < count; g++) {
    const mine = items.filter((x) => x.group === g);
    const layout = d.createBindGroupLayout({ entries: mine.map((x) => x.layout) });
    bgls.push(layout);
    groups.push(d.createBindGroup({ layout, entries: mine.map((x) => ({ binding: x.binding, resource: x.resource })) }));
  }
  return { groups, layout: d.createPipelineLayout({ bindGroupLayouts: bgls }) };
}

/**
 * The passes through compute before the draw (a geometry, hull or domain
 * shader): their stage buffers, each pass's bind groups and pipeline, and
 * the draw's groups (the stage buffers it reads, and the shader's entries
 * when the plan says so).
 */
function loadPasses(d, job, modules) {
  const p = job.plan.passes;
  // Storage buffers may also feed the draw as its indices or its indirect arguments.
  const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.INDEX | GPUBufferUsage.INDIRECT;
  job.stageBuffers = p.buffers.map((b) => {
    const usage = (b.uniform ? GPUBufferUsage.UNIFORM : storage) | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    const buf = d.createBuffer({ size: b.size, usage, label: b.label });
    if (b.blob !== null && b.blob !== undefined) d.queue.writeBuffer(buf, 0, job.blobs[b.blob]);
    return buf;
  });
  const stageItems = (list, visibility) => list.map((b) => ({
    group: b.group, binding: b.binding,
    layout: { binding: b.binding, visibility, buffer: { type: b.uniform ? 'uniform' : b.writable ? 'storage' : 'read-only-storage' } },
    resource: { buffer: job.stageBuffers[b.buffer] },
  }));
  job.computePasses = p.compute.map((c) => {
    const items = (c.shader_entries ? job.entryItems.filter((x) => x.shader === c.shader) : []).concat(stageItems(c.buffers, COMPUTE));
    const made = makeGroups(d, items);
    const pipeline = d.createComputePipeline({ layout: made.layout, compute: { module: modules[c.module], entryPoint: c.entry } });
    return { pipeline, groups: made.groups, workgroups: c.workgroups };
  });
  // The user's domain shader as the draw's vertex stage reads its own resources too.
  const draw = makeGroups(d, (p.draw_entries ? job.entryItems.filter((x) => x.shader === p.draw_shader) : []).concat(stageItems(p.draw_buffers, VERTEX)));
  job.drawGroups = draw.groups;
  job.drawLayout = draw.layout;
}

/** Builds every object of the plan; resolves when the pipeline is compiled. */
export async function preview_load(gpu, planJson, blobs) {
  const plan = JSON.parse(planJson);
  const d = gpu.device;
  // A domain shader is the draw's vertex stage.
  const vis = plan.stage === 'Pixel' ? FRAGMENT : plan.stage === 'Vertex' || plan.stage === 'Domain' ? VERTEX : COMPUTE;
  const job = { plan, blobs, resources: [], targets: [], depth: null, groups: [], pipeline: null };
  stats.plan = plan;
  stats.loadedAt = stats.frames;
  const modules = plan.modules.map((m) => d.createShaderModule({ code: m.code, label: m.stage }));
  await Promise.all(modules.map((m, i) => compileInfo(m, plan.modules[i].translated ? 'translated shader' : `${plan.modules[i].stage} glue`)));
  await scoped(d, () => {
    const layouts = [];
    const groupCount = plan.entries.reduce((n, e) => Math.max(n, e.group + 1), 0);
    for (let g = 0; g < groupCount; g++) layouts.push([]);
    for (const e of plan.entries) {
      const r = e.resource;
      let layout, res;
      if (r.type === 'buffer') {
        const bytes = blobs[r.blob];
        const usage = (r.kind === 'uniform' ? GPUBufferUsage.UNIFORM : GPUBufferUsage.STORAGE)
          | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
        const buf = d.createBuffer({ size: Math.max(16, Math.ceil(bytes.byteLength / 4) * 4), usage, label: e.register });
        d.queue.writeBuffer(buf, 0, bytes);
        layout = { buffer: { type: r.kind } };
        res = { buffer: buf };
      } else if (r.type === 'texture' && r.samples > 1) {
        const tex = fillMultisampled(d, modules[r.fill], r, blobs[r.blob]);
        layout = { texture: { sampleType: r.sample_type, viewDimension: '2d', multisampled: true } };
        res = tex.createView();
        job.resources.push({ texture: tex, entry: e });
      } else if (r.type === 'texture' || r.type === 'storage-texture') {
        const storage = r.type === 'storage-texture';
        const tex = d.createTexture({
          size: [r.width, r.height, r.depth_or_layers], dimension: r.dimension, format: r.format,
          usage: (storage ? GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC : GPUTextureUsage.TEXTURE_BINDING)
            | GPUTextureUsage.COPY_DST,
          label: e.register,
        });
        d.queue.writeTexture({ texture: tex }, blobs[r.blob], { bytesPerRow: r.bytes_per_row, rowsPerImage: r.height },
          [r.width, r.height, r.depth_or_layers]);
        const view = tex.createView({ dimension: r.view_dimension });
        layout = storage
          ? { storageTexture: { access: 'read-write', format: r.format, viewDimension: r.view_dimension } }
          : { texture: { sampleType: r.sample_type, viewDimension: r.view_dimension, multisampled: false } };
        res = view;
        job.resources.push({ texture: tex, entry: e });
      } else {
        const f = r.filter;
        const s = d.createSampler({
          addressModeU: r.address, addressModeV: r.address, addressModeW: r.address,
          magFilter: f, minFilter: f, mipmapFilter: f, ...(r.compare ? { compare: r.compare } : {}),
        });
        layout = { sampler: { type: r.compare ? 'comparison' : 'filtering' } };
        res = s;
      }
      e._res = res;
      // A user domain shader is the draw's vertex stage; every other user
      // shader of passes runs as compute.
      const p = plan.passes;
      const visibility = !p ? vis : p.draw_entries && p.draw_shader === e.shader ? VERTEX : COMPUTE;
      layouts[e.group].push({ binding: e.binding, visibility, ...layout, shader: e.shader });
    }
    const items = plan.entries.map((e, i) => {
      const { shader, ...layout } = layouts[e.group].find((l) => l.binding === e.binding && l.shader === e.shader);
      return { group: e.group, binding: e.binding, layout, resource: e._res, i, shader };
    });
    // The bind groups of a draw or dispatch without passes: one shader's.
    const made = makeGroups(d, items.filter((x) => x.shader === 0));
    job.groups = made.groups;
    job.layout = made.layout;
    job.entryItems = items;
    if (plan.passes) loadPasses(d, job, modules);
  });
  if (plan.draw) {
    const dr = plan.draw;
    const maxLoc = dr.targets.reduce((n, t) => Math.max(n, t.location + 1), 0);
    const targets = [];
    for (let l = 0; l < maxLoc; l++) {
      const t = dr.targets.find((x) => x.location === l);
      targets.push(t ? { format: t.format } : null);
    }
    const desc = {
      layout: job.layout,
      vertex: {
        module: modules[dr.vertex_module], entryPoint: plan.modules[dr.vertex_module].entry,
        buffers: dr.attributes.length ? [{
          arrayStride: dr.stride,
          attributes: dr.attributes.map((a) => ({ format: a.format, offset: a.offset, shaderLocation: a.location })),
        }] : [],
      },
      fragment: { module: modules[dr.fragment_module], entryPoint: plan.modules[dr.fragment_module].entry, targets },
      primitive: { topology: dr.topology, frontFace: 'cw', cullMode: 'none' },
    };
    if (dr.depth) desc.depthStencil = { format: 'depth32float', depthWriteEnabled: true, depthCompare: dr.depth };
    if (plan.passes) desc.layout = job.drawLayout;
    job.pipeline = await d.createRenderPipelineAsync(desc);
    job.targets = dr.targets.map((t) => d.createTexture({
      size: [plan.width, plan.height], format: t.format,
      usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC | GPUTextureUsage.TEXTURE_BINDING,
    }));
    if (dr.depth) {
      job.depth = d.createTexture({ size: [plan.width, plan.height], format: 'depth32float', usage: GPUTextureUsage.RENDER_ATTACHMENT });
    }
    if (dr.attributes.length) {
      job.vb = d.createBuffer({ size: Math.max(4, blobs[dr.vertex_blob].byteLength), usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST });
      d.queue.writeBuffer(job.vb, 0, blobs[dr.vertex_blob]);
    }
    if (dr.index_blob !== null && dr.index_blob !== undefined) {
      job.ib = d.createBuffer({ size: Math.max(4, blobs[dr.index_blob].byteLength), usage: GPUBufferUsage.INDEX | GPUBufferUsage.COPY_DST });
      d.queue.writeBuffer(job.ib, 0, blobs[dr.index_blob]);
    }
  } else {
    const [m] = plan.dispatch;
    job.pipeline = await d.createComputePipelineAsync({ layout: job.layout, compute: { module: modules[m], entryPoint: plan.modules[m].entry } });
  }
  gpu.job = job;
  return true;
}

/** Replaces the contents of entry `entry`'s buffer (a control changed). */
export function preview_update(gpu, entry, bytes) {
  const e = gpu.job && gpu.job.plan.entries[entry];
  if (e && e._res && e._res.buffer) gpu.device.queue.writeBuffer(e._res.buffer, 0, bytes);
}

function encodeWork(gpu, enc) {
  const { plan } = gpu.job;
  let groups = gpu.job.groups;
  if (plan.passes) {
    // The geometry pass appends at a count that starts every frame at 0.
    plan.passes.buffers.forEach((b, i) => { if (b.reset) enc.clearBuffer(gpu.job.stageBuffers[i]); });
    for (const c of gpu.job.computePasses) {
      const pass = enc.beginComputePass();
      pass.setPipeline(c.pipeline);
      c.groups.forEach((g, i) => pass.setBindGroup(i, g));
      pass.dispatchWorkgroups(c.workgroups[0], c.workgroups[1], c.workgroups[2]);
      pass.end();
    }
    groups = gpu.job.drawGroups;
  }
  if (plan.draw) {
    const dr = plan.draw;
    const colorAttachments = [];
    const maxLoc = dr.targets.reduce((n, t) => Math.max(n, t.location + 1), 0);
    for (let l = 0; l < maxLoc; l++) {
      const i = dr.targets.findIndex((x) => x.location === l);
      colorAttachments.push(i < 0 ? null : {
        view: gpu.job.targets[i].createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0],
      });
    }
    const pass = enc.beginRenderPass({
      colorAttachments,
      ...(gpu.job.depth ? { depthStencilAttachment: { view: gpu.job.depth.createView(), depthLoadOp: 'clear', depthClearValue: 1, depthStoreOp: 'store' } } : {}),
    });
    pass.setPipeline(gpu.job.pipeline);
    groups.forEach((g, i) => pass.setBindGroup(i, g));
    if (gpu.job.vb) pass.setVertexBuffer(0, gpu.job.vb);
    const p = plan.passes;
    if (p && p.draw_indices !== null && p.draw_indices !== undefined) {
      // The tessellator's indices, as many as a pass wrote into the arguments.
      pass.setIndexBuffer(gpu.job.stageBuffers[p.draw_indices], 'uint32');
      pass.drawIndexedIndirect(gpu.job.stageBuffers[p.draw_indirect], 0);
    } else if (gpu.job.ib) {
      pass.setIndexBuffer(gpu.job.ib, 'uint32');
      pass.drawIndexed(dr.index_count);
    } else {
      pass.draw(dr.vertex_count);
    }
    pass.end();
  } else {
    const pass = enc.beginComputePass();
    pass.setPipeline(gpu.job.pipeline);
    groups.forEach((g, i) => pass.setBindGroup(i, g));
    const [, [x, y, z]] = plan.dispatch;
    pass.dispatchWorkgroups(x, y, z);
    pass.end();
  }
}

function present(gpu, enc, texture, format) {
  const kind = sampleKind(format);
  const pipe = displayPipeline(gpu, kind);
  const bg = gpu.device.createBindGroup({ layout: pipe.getBindGroupLayout(0), entries: [{ binding: 0, resource: texture.createView() }] });
  const pass = enc.beginRenderPass({
    colorAttachments: [{ view: gpu.ctx.getCurrentTexture().createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0.08, 0.08, 0.1, 1] }],
  });
  pass.setPipeline(pipe);
  pass.setBindGroup(0, bg);
  pass.draw(3);
  pass.end();
}

/**
 * Runs the work, shows colour target `show` (index into draw.targets; -1 =
 * none) on the canvas and resolves when the GPU has finished the frame
 * (`stats.lastFrameMs` is the time from this call to then).
 */
export async function preview_frame(gpu, show) {
  const t0 = performance.now();
  const d = gpu.device;
  const job = gpu.job;
  if (!job) throw new Error('no plan loaded');
  const enc = d.createCommandEncoder();
  encodeWork(gpu, enc);
  if (job.plan.draw && show >= 0 && show < job.targets.length) present(gpu, enc, job.targets[show], job.plan.draw.targets[show].format);
  await scoped(d, () => d.queue.submit([enc.finish()]));
  await d.queue.onSubmittedWorkDone();
  stats.frames += 1;
  stats.lastFrameMs = performance.now() - t0;
}

/**
 * Copies every read-back of the last frame to the CPU (exact values for
 * the pointer, tables, compare): an Array of Uint8Array in plan order.
 * Separate from the frame so that dragging a control only renders.
 */
export async function preview_readback(gpu) {
  const d = gpu.device;
  const frame = stats.frames;
  const rb = d.createCommandEncoder();
  const staging = encodeReadbacks(gpu, rb);
  d.queue.submit([rb.finish()]);
  const out = await mapReadbacks(staging);
  stats.readbacks = out;
  stats.readbackOf = frame;
  return out;
}

/** Shows an RGBA8 picture (a compute result drawn by Rust) on the canvas. */
export function preview_show_rgba8(gpu, width, height, pixels) {
  const d = gpu.device;
  const tex = d.createTexture({ size: [width, height], format: 'rgba8unorm', usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
  d.queue.writeTexture({ texture: tex }, pixels, { bytesPerRow: width * 4 }, [width, height]);
  gpu.canvas.width = width;
  gpu.canvas.height = height;
  const enc = d.createCommandEncoder();
  present(gpu, enc, tex, 'rgba8unorm');
  d.queue.submit([enc.finish()]);
}

/**
 * Draws RGBA8 pixels through a 2D context, for a canvas WebGPU never took
 * (the CPU interpreter's picture); false when the canvas holds another
 * kind of context.
 */
export function preview_draw_2d(canvas, width, height, pixels) {
  const ctx = canvas.getContext('2d');
  if (!ctx) return false;
  canvas.width = width;
  canvas.height = height;
  ctx.putImageData(new ImageData(new Uint8ClampedArray(pixels), width, height), 0, 0);
  return true;
}

export function preview_resize(gpu, width, height) {
  gpu.canvas.width = width;
  gpu.canvas.height = height;
}

function encodeReadbacks(gpu, enc) {
  const d = gpu.device;
  const { plan } = gpu.job;
  return plan.readbacks.map((r) => {
    if (r.type === 'target') {
      const row = plan.width * 16;
      const size = row * plan.height;
      const buf = d.createBuffer({ size, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
      enc.copyTextureToBuffer({ texture: gpu.job.targets[r.index] }, { buffer: buf, bytesPerRow: row, rowsPerImage: plan.height }, [plan.width, plan.height]);
      return { buf, size, row, padded: row, rows: plan.height, layers: 1 };
    }
    const e = plan.entries[r.entry];
    if (r.type === 'buffer') {
      const size = e._res.buffer.size;
      const buf = d.createBuffer({ size, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
      enc.copyBufferToBuffer(e._res.buffer, 0, buf, 0, size);
      return { buf, size, row: size, padded: size, rows: 1, layers: 1 };
    }
    const t = e.resource;
    const row = t.width * 4;
    const padded = Math.ceil(row / 256) * 256;
    const size = padded * t.height * t.depth_or_layers;
    const buf = d.createBuffer({ size, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    const tex = gpu.job.resources.find((x) => x.entry === e).texture;
    enc.copyTextureToBuffer({ texture: tex }, { buffer: buf, bytesPerRow: padded, rowsPerImage: t.height }, [t.width, t.height, t.depth_or_layers]);
    return { buf, size, row, padded, rows: t.height, layers: t.depth_or_layers };
  });
}

async function mapReadbacks(staging) {
  await Promise.all(staging.map((s) => s.buf.mapAsync(GPUMapMode.READ)));
  return staging.map((s) => {
    const src = new Uint8Array(s.buf.getMappedRange());
    let out;
    if (s.row === s.padded) {
      out = src.slice(0, s.row * s.rows * s.layers);
    } else {
      out = new Uint8Array(s.row * s.rows * s.layers);
      for (let i = 0; i < s.rows * s.layers; i++) out.set(src.subarray(i * s.padded, i * s.padded + s.row), i * s.row);
    }
    s.buf.unmap();
    s.buf.destroy();
    return out;
  });
}

/** Decodes a picture the user dropped (PNG, JPEG, …) to RGBA8, at most 1024 pixels a side. */
export async function preview_decode_image(file) {
  const bmp = await createImageBitmap(file);
  const scale = Math.min(1, 1024 / Math.max(bmp.width, bmp.height));
  const w = Math.max(1, Math.round(bmp.width * scale)), h = Math.max(1, Math.round(bmp.height * scale));
  const c = new OffscreenCanvas(w, h);
  const g = c.getContext('2d');
  g.drawImage(bmp, 0, 0, w, h);
  const d = g.getImageData(0, 0, w, h);
  return [w, h, new Uint8Array(d.data.buffer)];
}

/** The device's compute workgroup limits: [x, y, z, invocations]. */
export function preview_limits(gpu) {
  const l = gpu.device.limits;
  return new Float64Array([l.maxComputeWorkgroupSizeX, l.maxComputeWorkgroupSizeY, l.maxComputeWorkgroupSizeZ, l.maxComputeInvocationsPerWorkgroup]);
}
