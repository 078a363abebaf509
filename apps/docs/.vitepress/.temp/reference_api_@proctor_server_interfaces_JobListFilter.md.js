import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: JobListFilter","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/JobListFilter.md","filePath":"reference/api/@proctor/server/interfaces/JobListFilter.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/JobListFilter.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / JobListFilter</p><h1 id="interface-joblistfilter" tabindex="-1">Interface: JobListFilter <a class="header-anchor" href="#interface-joblistfilter" aria-label="Permalink to &quot;Interface: JobListFilter&quot;">​</a></h1><p>Defined in: packages/server/src/jobs/JobStore.ts:42</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="before" tabindex="-1">before <a class="header-anchor" href="#before" aria-label="Permalink to &quot;before&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>before</strong>: { <code>createdAt</code>: <code>string</code>; <code>id</code>: <code>string</code>; } | <code>null</code></p></blockquote><p>Defined in: packages/server/src/jobs/JobStore.ts:48</p><p>Keyset position, newest first: the (created_at, id) of the last job of the previous page.</p><hr><h3 id="limit" tabindex="-1">limit <a class="header-anchor" href="#limit" aria-label="Permalink to &quot;limit&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>limit</strong>: <code>number</code></p></blockquote><p>Defined in: packages/server/src/jobs/JobStore.ts:46</p><hr><h3 id="ownerkeyid" tabindex="-1">ownerKeyId <a class="header-anchor" href="#ownerkeyid" aria-label="Permalink to &quot;ownerKeyId&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>ownerKeyId</strong>: <code>string</code> | <code>null</code></p></blockquote><p>Defined in: packages/server/src/jobs/JobStore.ts:44</p><p>null lists every owner&#39;s jobs (an admin key).</p><hr><h3 id="statuses" tabindex="-1">statuses <a class="header-anchor" href="#statuses" aria-label="Permalink to &quot;statuses&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>statuses</strong>: readonly (<code>&quot;cancelled&quot;</code> | <code>&quot;completed&quot;</code> | <code>&quot;failed&quot;</code> | <code>&quot;pending&quot;</code> | <code>&quot;running&quot;</code>)[] | <code>null</code></p></blockquote><p>Defined in: packages/server/src/jobs/JobStore.ts:45</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/JobListFilter.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const JobListFilter = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  JobListFilter as default
};
