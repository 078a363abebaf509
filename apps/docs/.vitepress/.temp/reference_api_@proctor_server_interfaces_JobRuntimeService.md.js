import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: JobRuntimeService","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/JobRuntimeService.md","filePath":"reference/api/@proctor/server/interfaces/JobRuntimeService.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/JobRuntimeService.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / JobRuntimeService</p><h1 id="interface-jobruntimeservice" tabindex="-1">Interface: JobRuntimeService <a class="header-anchor" href="#interface-jobruntimeservice" aria-label="Permalink to &quot;Interface: JobRuntimeService&quot;">​</a></h1><p>Defined in: packages/server/src/jobs/JobRuntime.ts:45</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="open" tabindex="-1">open <a class="header-anchor" href="#open" aria-label="Permalink to &quot;open&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>open</strong>: (<code>record</code>) =&gt; <code>Effect</code>&lt;<a href="./OpenedJob.html"><code>OpenedJob</code></a>, <a href="./../classes/JobUnrunnable.html"><code>JobUnrunnable</code></a>&gt;</p></blockquote><p>Defined in: packages/server/src/jobs/JobRuntime.ts:46</p><h4 id="parameters" tabindex="-1">Parameters <a class="header-anchor" href="#parameters" aria-label="Permalink to &quot;Parameters&quot;">​</a></h4><h5 id="record" tabindex="-1">record <a class="header-anchor" href="#record" aria-label="Permalink to &quot;record&quot;">​</a></h5><p><a href="./JobRecord.html"><code>JobRecord</code></a></p><h4 id="returns" tabindex="-1">Returns <a class="header-anchor" href="#returns" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>Effect</code>&lt;<a href="./OpenedJob.html"><code>OpenedJob</code></a>, <a href="./../classes/JobUnrunnable.html"><code>JobUnrunnable</code></a>&gt;</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/JobRuntimeService.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const JobRuntimeService = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  JobRuntimeService as default
};
