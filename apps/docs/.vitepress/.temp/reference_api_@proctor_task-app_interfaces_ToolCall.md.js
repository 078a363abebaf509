import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ToolCall","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/task-app/interfaces/ToolCall.md","filePath":"reference/api/@proctor/task-app/interfaces/ToolCall.md"}');
const _sfc_main = { name: "reference/api/@proctor/task-app/interfaces/ToolCall.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/task-app</a> / ToolCall</p><h1 id="interface-toolcall" tabindex="-1">Interface: ToolCall <a class="header-anchor" href="#interface-toolcall" aria-label="Permalink to &quot;Interface: ToolCall&quot;">​</a></h1><p>Defined in: packages/task-app/src/openAiChat.ts:3</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="function" tabindex="-1">function <a class="header-anchor" href="#function" aria-label="Permalink to &quot;function&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>function</strong>: <code>object</code></p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:6</p><h4 id="arguments" tabindex="-1">arguments <a class="header-anchor" href="#arguments" aria-label="Permalink to &quot;arguments&quot;">​</a></h4><blockquote><p><code>readonly</code> <strong>arguments</strong>: <code>string</code></p></blockquote><h4 id="name" tabindex="-1">name <a class="header-anchor" href="#name" aria-label="Permalink to &quot;name&quot;">​</a></h4><blockquote><p><code>readonly</code> <strong>name</strong>: <code>string</code></p></blockquote><hr><h3 id="id" tabindex="-1">id <a class="header-anchor" href="#id" aria-label="Permalink to &quot;id&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>id</strong>: <code>string</code></p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:4</p><hr><h3 id="type" tabindex="-1">type <a class="header-anchor" href="#type" aria-label="Permalink to &quot;type&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>type</strong>: <code>&quot;function&quot;</code></p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:5</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/task-app/interfaces/ToolCall.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ToolCall = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ToolCall as default
};
