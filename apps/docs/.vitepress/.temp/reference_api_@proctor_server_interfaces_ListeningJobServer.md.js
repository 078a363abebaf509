import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ListeningJobServer","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/ListeningJobServer.md","filePath":"reference/api/@proctor/server/interfaces/ListeningJobServer.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/ListeningJobServer.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / ListeningJobServer</p><h1 id="interface-listeningjobserver" tabindex="-1">Interface: ListeningJobServer <a class="header-anchor" href="#interface-listeningjobserver" aria-label="Permalink to &quot;Interface: ListeningJobServer&quot;">​</a></h1><p>Defined in: packages/server/src/api/createJobServer.ts:87</p><p>A job server inside its scope: listening, its jobs resumed. Closing the scope drains it and closes it.</p><h2 id="extended-by" tabindex="-1">Extended by <a class="header-anchor" href="#extended-by" aria-label="Permalink to &quot;Extended by&quot;">​</a></h2><ul><li><a href="./JobServer.html"><code>JobServer</code></a></li></ul><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="app" tabindex="-1">app <a class="header-anchor" href="#app" aria-label="Permalink to &quot;app&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>app</strong>: <code>FastifyInstance</code></p></blockquote><p>Defined in: packages/server/src/api/createJobServer.ts:89</p><hr><h3 id="url" tabindex="-1">url <a class="header-anchor" href="#url" aria-label="Permalink to &quot;url&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>url</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/api/createJobServer.ts:88</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/ListeningJobServer.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ListeningJobServer = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ListeningJobServer as default
};
