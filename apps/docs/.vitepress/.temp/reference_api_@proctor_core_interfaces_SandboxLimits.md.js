import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: SandboxLimits","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/SandboxLimits.md","filePath":"reference/api/@proctor/core/interfaces/SandboxLimits.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/SandboxLimits.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / SandboxLimits</p><h1 id="interface-sandboxlimits" tabindex="-1">Interface: SandboxLimits <a class="header-anchor" href="#interface-sandboxlimits" aria-label="Permalink to &quot;Interface: SandboxLimits&quot;">​</a></h1><p>Defined in: packages/core/src/sandbox/Sandbox.ts:66</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="cpus" tabindex="-1">cpus? <a class="header-anchor" href="#cpus" aria-label="Permalink to &quot;cpus?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>cpus?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/sandbox/Sandbox.ts:67</p><hr><h3 id="memorymb" tabindex="-1">memoryMb? <a class="header-anchor" href="#memorymb" aria-label="Permalink to &quot;memoryMb?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>memoryMb?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/sandbox/Sandbox.ts:68</p><hr><h3 id="pids" tabindex="-1">pids? <a class="header-anchor" href="#pids" aria-label="Permalink to &quot;pids?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>pids?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/sandbox/Sandbox.ts:69</p><hr><h3 id="storagemb" tabindex="-1">storageMb? <a class="header-anchor" href="#storagemb" aria-label="Permalink to &quot;storageMb?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>storageMb?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/sandbox/Sandbox.ts:71</p><p>Held where the runtime can (<code>enforcesStorage</code>): bubblewrap, as the size of each writable tmpfs.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/SandboxLimits.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const SandboxLimits = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  SandboxLimits as default
};
