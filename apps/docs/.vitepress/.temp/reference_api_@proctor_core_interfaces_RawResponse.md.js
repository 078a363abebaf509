import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RawResponse","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/RawResponse.md","filePath":"reference/api/@proctor/core/interfaces/RawResponse.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/RawResponse.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / RawResponse</p><h1 id="interface-rawresponse" tabindex="-1">Interface: RawResponse <a class="header-anchor" href="#interface-rawresponse" aria-label="Permalink to &quot;Interface: RawResponse&quot;">​</a></h1><p>Defined in: packages/core/src/taskApp/TaskAppClient.ts:41</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="headers" tabindex="-1">headers <a class="header-anchor" href="#headers" aria-label="Permalink to &quot;headers&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>headers</strong>: <code>Readonly</code>&lt;<code>Record</code>&lt;<code>string</code>, <code>string</code> | <code>ReadonlyArray</code>&lt;<code>string</code>&gt; | <code>undefined</code>&gt;&gt;</p></blockquote><p>Defined in: packages/core/src/taskApp/TaskAppClient.ts:43</p><hr><h3 id="status" tabindex="-1">status <a class="header-anchor" href="#status" aria-label="Permalink to &quot;status&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>status</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/taskApp/TaskAppClient.ts:42</p><hr><h3 id="text" tabindex="-1">text <a class="header-anchor" href="#text" aria-label="Permalink to &quot;text&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>text</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/taskApp/TaskAppClient.ts:44</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/RawResponse.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RawResponse = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RawResponse as default
};
