import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: JournalRepair","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/JournalRepair.md","filePath":"reference/api/@proctor/core/interfaces/JournalRepair.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/JournalRepair.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / JournalRepair</p><h1 id="interface-journalrepair" tabindex="-1">Interface: JournalRepair <a class="header-anchor" href="#interface-journalrepair" aria-label="Permalink to &quot;Interface: JournalRepair&quot;">​</a></h1><p>Defined in: packages/core/src/store/RunDirectory.ts:253</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="backup" tabindex="-1">backup <a class="header-anchor" href="#backup" aria-label="Permalink to &quot;backup&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>backup</strong>: <code>string</code> | <code>null</code></p></blockquote><p>Defined in: packages/core/src/store/RunDirectory.ts:255</p><p>A copy of the journal as it was, or null when nothing needed dropping (and the file was left alone).</p><hr><h3 id="dropped" tabindex="-1">dropped <a class="header-anchor" href="#dropped" aria-label="Permalink to &quot;dropped&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>dropped</strong>: readonly <a href="./JournalProblem.html"><code>JournalProblem</code></a>[]</p></blockquote><p>Defined in: packages/core/src/store/RunDirectory.ts:257</p><p>Every line dropped, in line order, with why.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/JournalRepair.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const JournalRepair = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  JournalRepair as default
};
