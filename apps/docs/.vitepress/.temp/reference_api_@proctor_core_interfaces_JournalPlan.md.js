import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: JournalPlan","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/JournalPlan.md","filePath":"reference/api/@proctor/core/interfaces/JournalPlan.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/JournalPlan.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / JournalPlan</p><h1 id="interface-journalplan" tabindex="-1">Interface: JournalPlan <a class="header-anchor" href="#interface-journalplan" aria-label="Permalink to &quot;Interface: JournalPlan&quot;">​</a></h1><p>Defined in: packages/core/src/store/internal/JournalScan.ts:8</p><p>The keys a run planned: each seed × attempts <code>0 … attempts - 1</code>.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="attempts" tabindex="-1">attempts <a class="header-anchor" href="#attempts" aria-label="Permalink to &quot;attempts&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>attempts</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/store/internal/JournalScan.ts:10</p><hr><h3 id="seeds" tabindex="-1">seeds <a class="header-anchor" href="#seeds" aria-label="Permalink to &quot;seeds&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>seeds</strong>: readonly <code>number</code>[]</p></blockquote><p>Defined in: packages/core/src/store/internal/JournalScan.ts:9</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/JournalPlan.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const JournalPlan = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  JournalPlan as default
};
