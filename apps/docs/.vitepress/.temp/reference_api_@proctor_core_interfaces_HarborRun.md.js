import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: HarborRun","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/HarborRun.md","filePath":"reference/api/@proctor/core/interfaces/HarborRun.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/HarborRun.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / HarborRun</p><h1 id="interface-harborrun" tabindex="-1">Interface: HarborRun <a class="header-anchor" href="#interface-harborrun" aria-label="Permalink to &quot;Interface: HarborRun&quot;">​</a></h1><p>Defined in: packages/core/src/agent/HarborRun.ts:64</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="solver" tabindex="-1">solver <a class="header-anchor" href="#solver" aria-label="Permalink to &quot;solver&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>solver</strong>: <code>Layer</code>&lt;<a href="./../classes/Solver.html"><code>Solver</code></a>&gt;</p></blockquote><p>Defined in: packages/core/src/agent/HarborRun.ts:66</p><hr><h3 id="taskidof" tabindex="-1">taskIdOf <a class="header-anchor" href="#taskidof" aria-label="Permalink to &quot;taskIdOf&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>taskIdOf</strong>: (<code>seed</code>) =&gt; <code>string</code></p></blockquote><p>Defined in: packages/core/src/agent/HarborRun.ts:68</p><p>A result&#39;s <code>task_id</code>: its task directory&#39;s name.</p><h4 id="parameters" tabindex="-1">Parameters <a class="header-anchor" href="#parameters" aria-label="Permalink to &quot;Parameters&quot;">​</a></h4><h5 id="seed" tabindex="-1">seed <a class="header-anchor" href="#seed" aria-label="Permalink to &quot;seed&quot;">​</a></h5><p><code>number</code></p><h4 id="returns" tabindex="-1">Returns <a class="header-anchor" href="#returns" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>string</code></p><hr><h3 id="tasks" tabindex="-1">tasks <a class="header-anchor" href="#tasks" aria-label="Permalink to &quot;tasks&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>tasks</strong>: readonly <a href="./HarborTask.html"><code>HarborTask</code></a>[]</p></blockquote><p>Defined in: packages/core/src/agent/HarborRun.ts:65</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/HarborRun.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const HarborRun = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  HarborRun as default
};
