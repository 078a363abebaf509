import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RolloutReport","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/RolloutReport.md","filePath":"reference/api/@proctor/core/interfaces/RolloutReport.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/RolloutReport.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / RolloutReport</p><h1 id="interface-rolloutreport" tabindex="-1">Interface: RolloutReport <a class="header-anchor" href="#interface-rolloutreport" aria-label="Permalink to &quot;Interface: RolloutReport&quot;">​</a></h1><p>Defined in: packages/core/src/taskApp/RolloutOutcome.ts:157</p><p>What a task app said about a rollout besides its numbers; kept on the result (bounded by the runner).</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="details" tabindex="-1">details <a class="header-anchor" href="#details" aria-label="Permalink to &quot;details&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>details</strong>: <code>unknown</code></p></blockquote><p>Defined in: packages/core/src/taskApp/RolloutOutcome.ts:158</p><hr><h3 id="final" tabindex="-1">final <a class="header-anchor" href="#final" aria-label="Permalink to &quot;final&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>final</strong>: <code>unknown</code></p></blockquote><p>Defined in: packages/core/src/taskApp/RolloutOutcome.ts:159</p><hr><h3 id="info" tabindex="-1">info <a class="header-anchor" href="#info" aria-label="Permalink to &quot;info&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>info</strong>: <code>unknown</code></p></blockquote><p>Defined in: packages/core/src/taskApp/RolloutOutcome.ts:160</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/RolloutReport.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RolloutReport = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RolloutReport as default
};
