import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RolloutWorker","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/RolloutWorker.md","filePath":"reference/api/@proctor/server/interfaces/RolloutWorker.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/RolloutWorker.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / RolloutWorker</p><h1 id="interface-rolloutworker" tabindex="-1">Interface: RolloutWorker <a class="header-anchor" href="#interface-rolloutworker" aria-label="Permalink to &quot;Interface: RolloutWorker&quot;">​</a></h1><p>Defined in: packages/server/src/cluster/RolloutWorker.ts:66</p><p>A worker inside its scope: taking rollouts. Closing the scope drains it and closes it.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="id" tabindex="-1">id <a class="header-anchor" href="#id" aria-label="Permalink to &quot;id&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>id</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/cluster/RolloutWorker.ts:67</p><hr><h3 id="interceptorurl" tabindex="-1">interceptorUrl <a class="header-anchor" href="#interceptorurl" aria-label="Permalink to &quot;interceptorUrl&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>interceptorUrl</strong>: <code>string</code> | <code>null</code></p></blockquote><p>Defined in: packages/server/src/cluster/RolloutWorker.ts:69</p><p>Where this worker&#39;s interceptor listens (null without interception).</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/RolloutWorker.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RolloutWorker = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RolloutWorker as default
};
