import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RolloutKey","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/RolloutKey.md","filePath":"reference/api/@proctor/core/interfaces/RolloutKey.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/RolloutKey.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / RolloutKey</p><h1 id="interface-rolloutkey" tabindex="-1">Interface: RolloutKey <a class="header-anchor" href="#interface-rolloutkey" aria-label="Permalink to &quot;Interface: RolloutKey&quot;">​</a></h1><p>Defined in: packages/core/src/result/EvalResult.ts:108</p><p>A rollout is identified by its seed and attempt within a run.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="attempt" tabindex="-1">attempt <a class="header-anchor" href="#attempt" aria-label="Permalink to &quot;attempt&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>attempt</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/result/EvalResult.ts:110</p><hr><h3 id="seed" tabindex="-1">seed <a class="header-anchor" href="#seed" aria-label="Permalink to &quot;seed&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>seed</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/result/EvalResult.ts:109</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/RolloutKey.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RolloutKey = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RolloutKey as default
};
