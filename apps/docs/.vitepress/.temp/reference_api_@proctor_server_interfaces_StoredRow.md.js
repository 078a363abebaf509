import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: StoredRow","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/StoredRow.md","filePath":"reference/api/@proctor/server/interfaces/StoredRow.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/StoredRow.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / StoredRow</p><h1 id="interface-storedrow" tabindex="-1">Interface: StoredRow <a class="header-anchor" href="#interface-storedrow" aria-label="Permalink to &quot;Interface: StoredRow&quot;">​</a></h1><p>Defined in: packages/server/src/jobs/RolloutStore.ts:22</p><p>A page position: the last (seed, attempt) already read.</p><h2 id="extends" tabindex="-1">Extends <a class="header-anchor" href="#extends" aria-label="Permalink to &quot;Extends&quot;">​</a></h2><ul><li><a href="./RolloutCursor.html"><code>RolloutCursor</code></a></li></ul><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="attempt" tabindex="-1">attempt <a class="header-anchor" href="#attempt" aria-label="Permalink to &quot;attempt&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>attempt</strong>: <code>number</code></p></blockquote><p>Defined in: packages/server/src/jobs/RolloutStore.ts:19</p><h4 id="inherited-from" tabindex="-1">Inherited from <a class="header-anchor" href="#inherited-from" aria-label="Permalink to &quot;Inherited from&quot;">​</a></h4><p><a href="./RolloutCursor.html"><code>RolloutCursor</code></a>.<a href="./RolloutCursor.html#attempt"><code>attempt</code></a></p><hr><h3 id="json" tabindex="-1">json <a class="header-anchor" href="#json" aria-label="Permalink to &quot;json&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>json</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/jobs/RolloutStore.ts:24</p><p>The stored JSON text, handed to clients as it is.</p><hr><h3 id="seed" tabindex="-1">seed <a class="header-anchor" href="#seed" aria-label="Permalink to &quot;seed&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>seed</strong>: <code>number</code></p></blockquote><p>Defined in: packages/server/src/jobs/RolloutStore.ts:18</p><h4 id="inherited-from-1" tabindex="-1">Inherited from <a class="header-anchor" href="#inherited-from-1" aria-label="Permalink to &quot;Inherited from&quot;">​</a></h4><p><a href="./RolloutCursor.html"><code>RolloutCursor</code></a>.<a href="./RolloutCursor.html#seed"><code>seed</code></a></p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/StoredRow.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const StoredRow = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  StoredRow as default
};
