import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RunningTaskApp","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/task-app/interfaces/RunningTaskApp.md","filePath":"reference/api/@proctor/task-app/interfaces/RunningTaskApp.md"}');
const _sfc_main = { name: "reference/api/@proctor/task-app/interfaces/RunningTaskApp.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/task-app</a> / RunningTaskApp</p><h1 id="interface-runningtaskapp" tabindex="-1">Interface: RunningTaskApp <a class="header-anchor" href="#interface-runningtaskapp" aria-label="Permalink to &quot;Interface: RunningTaskApp&quot;">​</a></h1><p>Defined in: packages/task-app/src/TaskAppDefinition.ts:134</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="close" tabindex="-1">close <a class="header-anchor" href="#close" aria-label="Permalink to &quot;close&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>close</strong>: () =&gt; <code>Promise</code>&lt;<code>void</code>&gt;</p></blockquote><p>Defined in: packages/task-app/src/TaskAppDefinition.ts:137</p><h4 id="returns" tabindex="-1">Returns <a class="header-anchor" href="#returns" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>Promise</code>&lt;<code>void</code>&gt;</p><hr><h3 id="url" tabindex="-1">url <a class="header-anchor" href="#url" aria-label="Permalink to &quot;url&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>url</strong>: <code>string</code></p></blockquote><p>Defined in: packages/task-app/src/TaskAppDefinition.ts:136</p><p><code>http://host:port</code>, ready for proctor&#39;s <code>--url</code>.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/task-app/interfaces/RunningTaskApp.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RunningTaskApp = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RunningTaskApp as default
};
