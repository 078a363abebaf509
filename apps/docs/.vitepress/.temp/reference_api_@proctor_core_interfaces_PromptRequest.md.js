import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: PromptRequest","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/PromptRequest.md","filePath":"reference/api/@proctor/core/interfaces/PromptRequest.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/PromptRequest.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / PromptRequest</p><h1 id="interface-promptrequest" tabindex="-1">Interface: PromptRequest <a class="header-anchor" href="#interface-promptrequest" aria-label="Permalink to &quot;Interface: PromptRequest&quot;">​</a></h1><p>Defined in: packages/core/src/agent/PromptTurn.ts:10</p><p>One prompt: an optional system message, the user&#39;s message, the model and settings passed as given.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="model" tabindex="-1">model <a class="header-anchor" href="#model" aria-label="Permalink to &quot;model&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>model</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/agent/PromptTurn.ts:11</p><hr><h3 id="settings" tabindex="-1">settings? <a class="header-anchor" href="#settings" aria-label="Permalink to &quot;settings?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>settings?</strong>: <code>Readonly</code>&lt;<code>Record</code>&lt;<code>string</code>, <code>unknown</code>&gt;&gt;</p></blockquote><p>Defined in: packages/core/src/agent/PromptTurn.ts:15</p><p>Sampling settings sent as given (<code>temperature</code>, <code>max_tokens</code>, …): the policy&#39;s table.</p><hr><h3 id="system" tabindex="-1">system <a class="header-anchor" href="#system" aria-label="Permalink to &quot;system&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>system</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/agent/PromptTurn.ts:12</p><hr><h3 id="user" tabindex="-1">user <a class="header-anchor" href="#user" aria-label="Permalink to &quot;user&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>user</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/agent/PromptTurn.ts:13</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/PromptRequest.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const PromptRequest = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  PromptRequest as default
};
