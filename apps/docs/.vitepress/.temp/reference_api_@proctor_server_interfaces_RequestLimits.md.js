import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RequestLimits","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/RequestLimits.md","filePath":"reference/api/@proctor/server/interfaces/RequestLimits.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/RequestLimits.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / RequestLimits</p><h1 id="interface-requestlimits" tabindex="-1">Interface: RequestLimits <a class="header-anchor" href="#interface-requestlimits" aria-label="Permalink to &quot;Interface: RequestLimits&quot;">​</a></h1><p>Defined in: packages/server/src/api/JobCreateRequest.ts:118</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="allowedtaskapphosts" tabindex="-1">allowedTaskAppHosts <a class="header-anchor" href="#allowedtaskapphosts" aria-label="Permalink to &quot;allowedTaskAppHosts&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>allowedTaskAppHosts</strong>: readonly <code>string</code>[] | <code>null</code></p></blockquote><p>Defined in: packages/server/src/api/JobCreateRequest.ts:124</p><p>When set, <code>task_app_url</code> must name one of these hosts (403 otherwise).</p><hr><h3 id="maxconcurrency" tabindex="-1">maxConcurrency <a class="header-anchor" href="#maxconcurrency" aria-label="Permalink to &quot;maxConcurrency&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>maxConcurrency</strong>: <code>number</code></p></blockquote><p>Defined in: packages/server/src/api/JobCreateRequest.ts:122</p><p>The most rollouts one job may run at once (<code>max_concurrent</code>).</p><hr><h3 id="maxseedsperjob" tabindex="-1">maxSeedsPerJob <a class="header-anchor" href="#maxseedsperjob" aria-label="Permalink to &quot;maxSeedsPerJob&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>maxSeedsPerJob</strong>: <code>number</code></p></blockquote><p>Defined in: packages/server/src/api/JobCreateRequest.ts:120</p><p>Default 100,000.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/RequestLimits.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RequestLimits = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RequestLimits as default
};
