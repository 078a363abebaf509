import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ClusterSettings","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/ClusterSettings.md","filePath":"reference/api/@proctor/server/interfaces/ClusterSettings.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/ClusterSettings.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / ClusterSettings</p><h1 id="interface-clustersettings" tabindex="-1">Interface: ClusterSettings <a class="header-anchor" href="#interface-clustersettings" aria-label="Permalink to &quot;Interface: ClusterSettings&quot;">​</a></h1><p>Defined in: packages/server/src/cluster/ClusterBus.ts:5</p><p>Where a cluster&#39;s processes meet in Redis; <code>prefix</code> keeps clusters (and parallel tests) apart.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="prefix" tabindex="-1">prefix <a class="header-anchor" href="#prefix" aria-label="Permalink to &quot;prefix&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>prefix</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/cluster/ClusterBus.ts:8</p><p>BullMQ&#39;s key prefix, and the prefix of every other key and channel. Default <code>proctor</code>.</p><hr><h3 id="redisurl" tabindex="-1">redisUrl <a class="header-anchor" href="#redisurl" aria-label="Permalink to &quot;redisUrl&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>redisUrl</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/cluster/ClusterBus.ts:6</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/ClusterSettings.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ClusterSettings = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ClusterSettings as default
};
