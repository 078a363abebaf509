import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: CompareOptions","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/report/interfaces/CompareOptions.md","filePath":"reference/api/@proctor/report/interfaces/CompareOptions.md"}');
const _sfc_main = { name: "reference/api/@proctor/report/interfaces/CompareOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/report</a> / CompareOptions</p><h1 id="interface-compareoptions" tabindex="-1">Interface: CompareOptions <a class="header-anchor" href="#interface-compareoptions" aria-label="Permalink to &quot;Interface: CompareOptions&quot;">​</a></h1><p>Defined in: packages/report/src/compare.ts:68</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="labels" tabindex="-1">labels? <a class="header-anchor" href="#labels" aria-label="Permalink to &quot;labels?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>labels?</strong>: <code>object</code></p></blockquote><p>Defined in: packages/report/src/compare.ts:72</p><p>How the runs are named in the output (a run directory, a job id); default &quot;A&quot; and &quot;B&quot;.</p><h4 id="a" tabindex="-1">a <a class="header-anchor" href="#a" aria-label="Permalink to &quot;a&quot;">​</a></h4><blockquote><p><code>readonly</code> <strong>a</strong>: <code>string</code></p></blockquote><h4 id="b" tabindex="-1">b <a class="header-anchor" href="#b" aria-label="Permalink to &quot;b&quot;">​</a></h4><blockquote><p><code>readonly</code> <strong>b</strong>: <code>string</code></p></blockquote><hr><h3 id="passthreshold" tabindex="-1">passThreshold? <a class="header-anchor" href="#passthreshold" aria-label="Permalink to &quot;passThreshold?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>passThreshold?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/report/src/compare.ts:70</p><p>A score at or above it passes (flips); default 1, the run config&#39;s default.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/report/interfaces/CompareOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const CompareOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  CompareOptions as default
};
