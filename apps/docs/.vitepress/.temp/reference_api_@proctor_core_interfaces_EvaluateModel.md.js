import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: EvaluateModel","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/EvaluateModel.md","filePath":"reference/api/@proctor/core/interfaces/EvaluateModel.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/EvaluateModel.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / EvaluateModel</p><h1 id="interface-evaluatemodel" tabindex="-1">Interface: EvaluateModel <a class="header-anchor" href="#interface-evaluatemodel" aria-label="Permalink to &quot;Interface: EvaluateModel&quot;">​</a></h1><p>Defined in: packages/core/src/eval/Evaluate.ts:32</p><p>The model a solver calls through <code>ctx.inferenceUrl</code>: every call is forwarded here and recorded.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="apikey" tabindex="-1">apiKey? <a class="header-anchor" href="#apikey" aria-label="Permalink to &quot;apiKey?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>apiKey?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/eval/Evaluate.ts:36</p><p>Sent upstream in place of whatever the solver&#39;s client sends; default as <code>proctor eval</code> finds it.</p><hr><h3 id="baseurl" tabindex="-1">baseUrl <a class="header-anchor" href="#baseurl" aria-label="Permalink to &quot;baseUrl&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>baseUrl</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/eval/Evaluate.ts:34</p><p>OpenAI-compatible or Anthropic base URL (<code>https://api.openai.com/v1</code>, <code>http://127.0.0.1:8001/v1</code>).</p><hr><h3 id="provider" tabindex="-1">provider? <a class="header-anchor" href="#provider" aria-label="Permalink to &quot;provider?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>provider?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/eval/Evaluate.ts:38</p><p>Calls are recorded and priced as this provider; inferred from well-known hosts when absent.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/EvaluateModel.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const EvaluateModel = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  EvaluateModel as default
};
