import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: SessionTraceMeta","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/SessionTraceMeta.md","filePath":"reference/api/@proctor/core/interfaces/SessionTraceMeta.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/SessionTraceMeta.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / SessionTraceMeta</p><h1 id="interface-sessiontracemeta" tabindex="-1">Interface: SessionTraceMeta <a class="header-anchor" href="#interface-sessiontracemeta" aria-label="Permalink to &quot;Interface: SessionTraceMeta&quot;">​</a></h1><p>Defined in: packages/core/src/traces/SessionTrace.ts:126</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="attempt" tabindex="-1">attempt <a class="header-anchor" href="#attempt" aria-label="Permalink to &quot;attempt&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>attempt</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/traces/SessionTrace.ts:130</p><hr><h3 id="createdat" tabindex="-1">createdAt? <a class="header-anchor" href="#createdat" aria-label="Permalink to &quot;createdAt?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>createdAt?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/traces/SessionTrace.ts:132</p><p>Defaults to the first call&#39;s start.</p><hr><h3 id="runid" tabindex="-1">runId <a class="header-anchor" href="#runid" aria-label="Permalink to &quot;runId&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>runId</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/traces/SessionTrace.ts:128</p><hr><h3 id="seed" tabindex="-1">seed <a class="header-anchor" href="#seed" aria-label="Permalink to &quot;seed&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>seed</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/traces/SessionTrace.ts:129</p><hr><h3 id="sessionid" tabindex="-1">sessionId <a class="header-anchor" href="#sessionid" aria-label="Permalink to &quot;sessionId&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>sessionId</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/traces/SessionTrace.ts:127</p><hr><h3 id="tracecorrelationid" tabindex="-1">traceCorrelationId? <a class="header-anchor" href="#tracecorrelationid" aria-label="Permalink to &quot;traceCorrelationId?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>traceCorrelationId?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/traces/SessionTrace.ts:134</p><p>Defaults to the calls&#39; <code>rollout_id</code> (the <code>run_id</code>/<code>trace_correlation_id</code> sent to the task app).</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/SessionTraceMeta.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const SessionTraceMeta = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  SessionTraceMeta as default
};
