import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: SessionTraceOptions","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/task-app/interfaces/SessionTraceOptions.md","filePath":"reference/api/@proctor/task-app/interfaces/SessionTraceOptions.md"}');
const _sfc_main = { name: "reference/api/@proctor/task-app/interfaces/SessionTraceOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/task-app</a> / SessionTraceOptions</p><h1 id="interface-sessiontraceoptions" tabindex="-1">Interface: SessionTraceOptions <a class="header-anchor" href="#interface-sessiontraceoptions" aria-label="Permalink to &quot;Interface: SessionTraceOptions&quot;">​</a></h1><p>Defined in: packages/task-app/src/sessionTrace.ts:12</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="calls" tabindex="-1">calls <a class="header-anchor" href="#calls" aria-label="Permalink to &quot;calls&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>calls</strong>: readonly <a href="./LmCall.html"><code>LmCall</code></a>[]</p></blockquote><p>Defined in: packages/task-app/src/sessionTrace.ts:14</p><hr><h3 id="createdat" tabindex="-1">createdAt? <a class="header-anchor" href="#createdat" aria-label="Permalink to &quot;createdAt?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>createdAt?</strong>: <code>Date</code></p></blockquote><p>Defined in: packages/task-app/src/sessionTrace.ts:16</p><hr><h3 id="metadata" tabindex="-1">metadata? <a class="header-anchor" href="#metadata" aria-label="Permalink to &quot;metadata?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>metadata?</strong>: <code>Readonly</code>&lt;<code>Record</code>&lt;<code>string</code>, <code>unknown</code>&gt;&gt;</p></blockquote><p>Defined in: packages/task-app/src/sessionTrace.ts:15</p><hr><h3 id="sessionid" tabindex="-1">sessionId <a class="header-anchor" href="#sessionid" aria-label="Permalink to &quot;sessionId&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>sessionId</strong>: <code>string</code></p></blockquote><p>Defined in: packages/task-app/src/sessionTrace.ts:13</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/task-app/interfaces/SessionTraceOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const SessionTraceOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  SessionTraceOptions as default
};
