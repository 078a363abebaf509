import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: LmCall","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/task-app/interfaces/LmCall.md","filePath":"reference/api/@proctor/task-app/interfaces/LmCall.md"}');
const _sfc_main = { name: "reference/api/@proctor/task-app/interfaces/LmCall.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/task-app</a> / LmCall</p><h1 id="interface-lmcall" tabindex="-1">Interface: LmCall <a class="header-anchor" href="#interface-lmcall" aria-label="Permalink to &quot;Interface: LmCall&quot;">​</a></h1><p>Defined in: packages/task-app/src/sessionTrace.ts:4</p><p>One model call of a rollout.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="completion" tabindex="-1">completion <a class="header-anchor" href="#completion" aria-label="Permalink to &quot;completion&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>completion</strong>: <a href="./ChatCompletion.html"><code>ChatCompletion</code></a></p></blockquote><p>Defined in: packages/task-app/src/sessionTrace.ts:7</p><hr><h3 id="messages" tabindex="-1">messages <a class="header-anchor" href="#messages" aria-label="Permalink to &quot;messages&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>messages</strong>: readonly <code>unknown</code>[]</p></blockquote><p>Defined in: packages/task-app/src/sessionTrace.ts:6</p><p>The messages as sent: copy the array, because the conversation keeps growing after the call.</p><hr><h3 id="model" tabindex="-1">model? <a class="header-anchor" href="#model" aria-label="Permalink to &quot;model?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>model?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/task-app/src/sessionTrace.ts:9</p><hr><h3 id="startedat" tabindex="-1">startedAt? <a class="header-anchor" href="#startedat" aria-label="Permalink to &quot;startedAt?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>startedAt?</strong>: <code>Date</code></p></blockquote><p>Defined in: packages/task-app/src/sessionTrace.ts:8</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/task-app/interfaces/LmCall.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const LmCall = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  LmCall as default
};
