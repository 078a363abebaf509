import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: TaskApp","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/task-app/interfaces/TaskApp.md","filePath":"reference/api/@proctor/task-app/interfaces/TaskApp.md"}');
const _sfc_main = { name: "reference/api/@proctor/task-app/interfaces/TaskApp.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/task-app</a> / TaskApp</p><h1 id="interface-taskapp" tabindex="-1">Interface: TaskApp <a class="header-anchor" href="#interface-taskapp" aria-label="Permalink to &quot;Interface: TaskApp&quot;">​</a></h1><p>Defined in: packages/task-app/src/TaskAppDefinition.ts:140</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="app" tabindex="-1">app <a class="header-anchor" href="#app" aria-label="Permalink to &quot;app&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>app</strong>: <code>FastifyInstance</code></p></blockquote><p>Defined in: packages/task-app/src/TaskAppDefinition.ts:141</p><hr><h3 id="listen" tabindex="-1">listen <a class="header-anchor" href="#listen" aria-label="Permalink to &quot;listen&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>listen</strong>: (<code>options?</code>) =&gt; <code>Promise</code>&lt;<a href="./RunningTaskApp.html"><code>RunningTaskApp</code></a>&gt;</p></blockquote><p>Defined in: packages/task-app/src/TaskAppDefinition.ts:142</p><h4 id="parameters" tabindex="-1">Parameters <a class="header-anchor" href="#parameters" aria-label="Permalink to &quot;Parameters&quot;">​</a></h4><h5 id="options" tabindex="-1">options? <a class="header-anchor" href="#options" aria-label="Permalink to &quot;options?&quot;">​</a></h5><p><a href="./ListenOptions.html"><code>ListenOptions</code></a></p><h4 id="returns" tabindex="-1">Returns <a class="header-anchor" href="#returns" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>Promise</code>&lt;<a href="./RunningTaskApp.html"><code>RunningTaskApp</code></a>&gt;</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/task-app/interfaces/TaskApp.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const TaskApp = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  TaskApp as default
};
