import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: CompareDelta","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/report/interfaces/CompareDelta.md","filePath":"reference/api/@proctor/report/interfaces/CompareDelta.md"}');
const _sfc_main = { name: "reference/api/@proctor/report/interfaces/CompareDelta.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/report</a> / CompareDelta</p><h1 id="interface-comparedelta" tabindex="-1">Interface: CompareDelta <a class="header-anchor" href="#interface-comparedelta" aria-label="Permalink to &quot;Interface: CompareDelta&quot;">​</a></h1><p>Defined in: packages/report/src/compare.ts:13</p><p>A per-rollout mean in each run (over the paired seeds&#39; rollouts that report it) and B − A.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="a" tabindex="-1">a <a class="header-anchor" href="#a" aria-label="Permalink to &quot;a&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>a</strong>: <code>number</code> | <code>null</code></p></blockquote><p>Defined in: packages/report/src/compare.ts:14</p><hr><h3 id="b" tabindex="-1">b <a class="header-anchor" href="#b" aria-label="Permalink to &quot;b&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>b</strong>: <code>number</code> | <code>null</code></p></blockquote><p>Defined in: packages/report/src/compare.ts:15</p><hr><h3 id="diff" tabindex="-1">diff <a class="header-anchor" href="#diff" aria-label="Permalink to &quot;diff&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>diff</strong>: <code>number</code> | <code>null</code></p></blockquote><p>Defined in: packages/report/src/compare.ts:16</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/report/interfaces/CompareDelta.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const CompareDelta = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  CompareDelta as default
};
