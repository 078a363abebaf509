import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ChatCompletion","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/task-app/interfaces/ChatCompletion.md","filePath":"reference/api/@proctor/task-app/interfaces/ChatCompletion.md"}');
const _sfc_main = { name: "reference/api/@proctor/task-app/interfaces/ChatCompletion.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/task-app</a> / ChatCompletion</p><h1 id="interface-chatcompletion" tabindex="-1">Interface: ChatCompletion <a class="header-anchor" href="#interface-chatcompletion" aria-label="Permalink to &quot;Interface: ChatCompletion&quot;">​</a></h1><p>Defined in: packages/task-app/src/openAiChat.ts:23</p><h2 id="indexable" tabindex="-1">Indexable <a class="header-anchor" href="#indexable" aria-label="Permalink to &quot;Indexable&quot;">​</a></h2><blockquote><p>[<code>key</code>: <code>string</code>]: <code>unknown</code></p></blockquote><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="choices" tabindex="-1">choices <a class="header-anchor" href="#choices" aria-label="Permalink to &quot;choices&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>choices</strong>: readonly <code>object</code>[]</p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:26</p><hr><h3 id="id" tabindex="-1">id? <a class="header-anchor" href="#id" aria-label="Permalink to &quot;id?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>id?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:24</p><hr><h3 id="model" tabindex="-1">model? <a class="header-anchor" href="#model" aria-label="Permalink to &quot;model?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>model?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:25</p><hr><h3 id="usage" tabindex="-1">usage? <a class="header-anchor" href="#usage" aria-label="Permalink to &quot;usage?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>usage?</strong>: <a href="./ChatUsage.html"><code>ChatUsage</code></a></p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:31</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/task-app/interfaces/ChatCompletion.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ChatCompletion = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ChatCompletion as default
};
