import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: JobSpec","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/JobSpec.md","filePath":"reference/api/@proctor/server/interfaces/JobSpec.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/JobSpec.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / JobSpec</p><h1 id="interface-jobspec" tabindex="-1">Interface: JobSpec <a class="header-anchor" href="#interface-jobspec" aria-label="Permalink to &quot;Interface: JobSpec&quot;">​</a></h1><p>Defined in: packages/server/src/jobs/admitJob.ts:12</p><p>A validated job request: the runnable config, and synth-ai&#39;s <code>mode</code> (echoed back, not used by the runner).</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="config" tabindex="-1">config <a class="header-anchor" href="#config" aria-label="Permalink to &quot;config&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>config</strong>: <a href="./../../core/interfaces/EvalRunConfig.html"><code>EvalRunConfig</code></a></p></blockquote><p>Defined in: packages/server/src/jobs/admitJob.ts:13</p><hr><h3 id="mode" tabindex="-1">mode <a class="header-anchor" href="#mode" aria-label="Permalink to &quot;mode&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>mode</strong>: <code>string</code> | <code>null</code></p></blockquote><p>Defined in: packages/server/src/jobs/admitJob.ts:14</p><hr><h3 id="requested" tabindex="-1">requested <a class="header-anchor" href="#requested" aria-label="Permalink to &quot;requested&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>requested</strong>: <code>Readonly</code>&lt;<code>Record</code>&lt;<code>string</code>, <code>unknown</code>&gt;&gt;</p></blockquote><p>Defined in: packages/server/src/jobs/admitJob.ts:16</p><p>The request as the client sent it, without secrets: what the job&#39;s status shows as its <code>config</code>.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/JobSpec.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const JobSpec = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  JobSpec as default
};
