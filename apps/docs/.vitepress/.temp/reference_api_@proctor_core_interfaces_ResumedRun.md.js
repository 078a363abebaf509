import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ResumedRun","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/ResumedRun.md","filePath":"reference/api/@proctor/core/interfaces/ResumedRun.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/ResumedRun.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / ResumedRun</p><h1 id="interface-resumedrun" tabindex="-1">Interface: ResumedRun <a class="header-anchor" href="#interface-resumedrun" aria-label="Permalink to &quot;Interface: ResumedRun&quot;">​</a></h1><p>Defined in: packages/core/src/eval/EvalRun.ts:191</p><p>A run directory opened to be resumed: its id and the config its missing rollouts run with.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="changes" tabindex="-1">changes <a class="header-anchor" href="#changes" aria-label="Permalink to &quot;changes&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>changes</strong>: readonly <code>string</code>[]</p></blockquote><p>Defined in: packages/core/src/eval/EvalRun.ts:196</p><p>The run settings this resume changes (concurrency, retries, timeout, url), one sentence each.</p><hr><h3 id="config" tabindex="-1">config <a class="header-anchor" href="#config" aria-label="Permalink to &quot;config&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>config</strong>: <a href="./EvalRunConfig.html"><code>EvalRunConfig</code></a></p></blockquote><p>Defined in: packages/core/src/eval/EvalRun.ts:194</p><hr><h3 id="rundir" tabindex="-1">runDir <a class="header-anchor" href="#rundir" aria-label="Permalink to &quot;runDir&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>runDir</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/eval/EvalRun.ts:193</p><hr><h3 id="runid" tabindex="-1">runId <a class="header-anchor" href="#runid" aria-label="Permalink to &quot;runId&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>runId</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/eval/EvalRun.ts:192</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/ResumedRun.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ResumedRun = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ResumedRun as default
};
