import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ResumedConfig","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/ResumedConfig.md","filePath":"reference/api/@proctor/core/interfaces/ResumedConfig.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/ResumedConfig.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / ResumedConfig</p><h1 id="interface-resumedconfig" tabindex="-1">Interface: ResumedConfig <a class="header-anchor" href="#interface-resumedconfig" aria-label="Permalink to &quot;Interface: ResumedConfig&quot;">​</a></h1><p>Defined in: packages/core/src/eval/EvalRun.ts:139</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="changes" tabindex="-1">changes <a class="header-anchor" href="#changes" aria-label="Permalink to &quot;changes&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>changes</strong>: readonly <code>string</code>[]</p></blockquote><p>Defined in: packages/core/src/eval/EvalRun.ts:142</p><p>One line per setting this session changes (a new concurrency, task-app URL, …), to tell the user.</p><hr><h3 id="config" tabindex="-1">config <a class="header-anchor" href="#config" aria-label="Permalink to &quot;config&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>config</strong>: <a href="./EvalRunConfig.html"><code>EvalRunConfig</code></a></p></blockquote><p>Defined in: packages/core/src/eval/EvalRun.ts:140</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/ResumedConfig.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ResumedConfig = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ResumedConfig as default
};
