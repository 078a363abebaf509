import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RolloutCursor","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/RolloutCursor.md","filePath":"reference/api/@proctor/server/interfaces/RolloutCursor.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/RolloutCursor.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / RolloutCursor</p><h1 id="interface-rolloutcursor" tabindex="-1">Interface: RolloutCursor <a class="header-anchor" href="#interface-rolloutcursor" aria-label="Permalink to &quot;Interface: RolloutCursor&quot;">​</a></h1><p>Defined in: packages/server/src/jobs/RolloutStore.ts:17</p><p>A page position: the last (seed, attempt) already read.</p><h2 id="extended-by" tabindex="-1">Extended by <a class="header-anchor" href="#extended-by" aria-label="Permalink to &quot;Extended by&quot;">​</a></h2><ul><li><a href="./StoredRow.html"><code>StoredRow</code></a></li></ul><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="attempt" tabindex="-1">attempt <a class="header-anchor" href="#attempt" aria-label="Permalink to &quot;attempt&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>attempt</strong>: <code>number</code></p></blockquote><p>Defined in: packages/server/src/jobs/RolloutStore.ts:19</p><hr><h3 id="seed" tabindex="-1">seed <a class="header-anchor" href="#seed" aria-label="Permalink to &quot;seed&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>seed</strong>: <code>number</code></p></blockquote><p>Defined in: packages/server/src/jobs/RolloutStore.ts:18</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/RolloutCursor.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RolloutCursor = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RolloutCursor as default
};
