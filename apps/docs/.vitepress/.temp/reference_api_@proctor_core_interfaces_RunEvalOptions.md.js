import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RunEvalOptions","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/RunEvalOptions.md","filePath":"reference/api/@proctor/core/interfaces/RunEvalOptions.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/RunEvalOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / RunEvalOptions</p><h1 id="interface-runevaloptions" tabindex="-1">Interface: RunEvalOptions <a class="header-anchor" href="#interface-runevaloptions" aria-label="Permalink to &quot;Interface: RunEvalOptions&quot;">​</a></h1><p>Defined in: packages/core/src/eval/EvalRun.ts:220</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="gracems" tabindex="-1">graceMs? <a class="header-anchor" href="#gracems" aria-label="Permalink to &quot;graceMs?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>graceMs?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/eval/EvalRun.ts:225</p><hr><h3 id="onevent" tabindex="-1">onEvent? <a class="header-anchor" href="#onevent" aria-label="Permalink to &quot;onEvent?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>onEvent?</strong>: (<code>event</code>) =&gt; <code>void</code></p></blockquote><p>Defined in: packages/core/src/eval/EvalRun.ts:222</p><h4 id="parameters" tabindex="-1">Parameters <a class="header-anchor" href="#parameters" aria-label="Permalink to &quot;Parameters&quot;">​</a></h4><h5 id="event" tabindex="-1">event <a class="header-anchor" href="#event" aria-label="Permalink to &quot;event&quot;">​</a></h5><p><a href="./../#runevent"><code>RunEvent</code></a></p><h4 id="returns" tabindex="-1">Returns <a class="header-anchor" href="#returns" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>void</code></p><hr><h3 id="rundir" tabindex="-1">runDir? <a class="header-anchor" href="#rundir" aria-label="Permalink to &quot;runDir?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>runDir?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/eval/EvalRun.ts:221</p><hr><h3 id="signal" tabindex="-1">signal? <a class="header-anchor" href="#signal" aria-label="Permalink to &quot;signal?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>signal?</strong>: <code>AbortSignal</code></p></blockquote><p>Defined in: packages/core/src/eval/EvalRun.ts:224</p><p>Aborting stops new rollouts; in-flight ones finish within <code>graceMs</code>, then are abandoned.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/RunEvalOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RunEvalOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RunEvalOptions as default
};
