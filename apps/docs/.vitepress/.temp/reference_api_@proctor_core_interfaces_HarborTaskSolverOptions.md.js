import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: HarborTaskSolverOptions","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/HarborTaskSolverOptions.md","filePath":"reference/api/@proctor/core/interfaces/HarborTaskSolverOptions.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/HarborTaskSolverOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / HarborTaskSolverOptions</p><h1 id="interface-harbortasksolveroptions" tabindex="-1">Interface: HarborTaskSolverOptions <a class="header-anchor" href="#interface-harbortasksolveroptions" aria-label="Permalink to &quot;Interface: HarborTaskSolverOptions&quot;">​</a></h1><p>Defined in: packages/core/src/agent/HarborTaskSolver.ts:73</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="agent" tabindex="-1">agent <a class="header-anchor" href="#agent" aria-label="Permalink to &quot;agent&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>agent</strong>: <a href="./Agent.html"><code>Agent</code></a></p></blockquote><p>Defined in: packages/core/src/agent/HarborTaskSolver.ts:76</p><hr><h3 id="runtime" tabindex="-1">runtime <a class="header-anchor" href="#runtime" aria-label="Permalink to &quot;runtime&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>runtime</strong>: <a href="./SandboxRuntimeService.html"><code>SandboxRuntimeService</code></a></p></blockquote><p>Defined in: packages/core/src/agent/HarborTaskSolver.ts:77</p><hr><h3 id="tasks" tabindex="-1">tasks <a class="header-anchor" href="#tasks" aria-label="Permalink to &quot;tasks&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>tasks</strong>: readonly <a href="./HarborTask.html"><code>HarborTask</code></a>[]</p></blockquote><p>Defined in: packages/core/src/agent/HarborTaskSolver.ts:75</p><p>The run&#39;s tasks; a rollout&#39;s seed is its task&#39;s index.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/HarborTaskSolverOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const HarborTaskSolverOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  HarborTaskSolverOptions as default
};
