import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Class: SandboxRuntime","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/classes/SandboxRuntime.md","filePath":"reference/api/@proctor/core/classes/SandboxRuntime.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/classes/SandboxRuntime.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / SandboxRuntime</p><h1 id="class-sandboxruntime" tabindex="-1">Class: SandboxRuntime <a class="header-anchor" href="#class-sandboxruntime" aria-label="Permalink to &quot;Class: SandboxRuntime&quot;">​</a></h1><p>Defined in: packages/core/src/sandbox/Sandbox.ts:143</p><p>Where rollouts&#39; sandboxes come from: Docker, bubblewrap, or an unisolated local process.</p><h2 id="extends" tabindex="-1">Extends <a class="header-anchor" href="#extends" aria-label="Permalink to &quot;Extends&quot;">​</a></h2><ul><li><code>TagClassShape</code>&lt;<code>&quot;@proctor/core/SandboxRuntime&quot;</code>, <a href="./../interfaces/SandboxRuntimeService.html"><code>SandboxRuntimeService</code></a>, <code>this</code>&gt;</li></ul><h2 id="constructors" tabindex="-1">Constructors <a class="header-anchor" href="#constructors" aria-label="Permalink to &quot;Constructors&quot;">​</a></h2><h3 id="constructor" tabindex="-1">Constructor <a class="header-anchor" href="#constructor" aria-label="Permalink to &quot;Constructor&quot;">​</a></h3><blockquote><p><strong>new SandboxRuntime</strong>(<code>_</code>): <code>SandboxRuntime</code></p></blockquote><p>Defined in: node_modules/.pnpm/effect@3.22.4/node_modules/effect/dist/dts/Context.d.ts:109</p><h4 id="parameters" tabindex="-1">Parameters <a class="header-anchor" href="#parameters" aria-label="Permalink to &quot;Parameters&quot;">​</a></h4><h5 id="" tabindex="-1">_ <a class="header-anchor" href="#" aria-label="Permalink to &quot;\\_&quot;">​</a></h5><p><code>never</code></p><h4 id="returns" tabindex="-1">Returns <a class="header-anchor" href="#returns" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>SandboxRuntime</code></p><h4 id="inherited-from" tabindex="-1">Inherited from <a class="header-anchor" href="#inherited-from" aria-label="Permalink to &quot;Inherited from&quot;">​</a></h4><p><code>Context.Tag(&quot;@proctor/core/SandboxRuntime&quot;)&lt;SandboxRuntime, SandboxRuntimeService&gt;().constructor</code></p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/classes/SandboxRuntime.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const SandboxRuntime = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  SandboxRuntime as default
};
