import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Library API","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/index.md","filePath":"reference/api/index.md"}');
const _sfc_main = { name: "reference/api/index.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="library-api" tabindex="-1">Library API <a class="header-anchor" href="#library-api" aria-label="Permalink to &quot;Library API&quot;">​</a></h1><h2 id="modules" tabindex="-1">Modules <a class="header-anchor" href="#modules" aria-label="Permalink to &quot;Modules&quot;">​</a></h2><ul><li><a href="./@proctor/core/">@proctor/core</a></li><li><a href="./@proctor/report/">@proctor/report</a></li><li><a href="./@proctor/server/">@proctor/server</a></li><li><a href="./@proctor/task-app/">@proctor/task-app</a></li></ul></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/index.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const index = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  index as default
};
