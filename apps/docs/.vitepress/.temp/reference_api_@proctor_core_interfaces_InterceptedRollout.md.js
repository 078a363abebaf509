import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: InterceptedRollout","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/InterceptedRollout.md","filePath":"reference/api/@proctor/core/interfaces/InterceptedRollout.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/InterceptedRollout.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / InterceptedRollout</p><h1 id="interface-interceptedrollout" tabindex="-1">Interface: InterceptedRollout <a class="header-anchor" href="#interface-interceptedrollout" aria-label="Permalink to &quot;Interface: InterceptedRollout&quot;">​</a></h1><p>Defined in: packages/core/src/interceptor/Interceptor.ts:60</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="cid" tabindex="-1">cid <a class="header-anchor" href="#cid" aria-label="Permalink to &quot;cid&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>cid</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/interceptor/Interceptor.ts:62</p><p><code>cid_</code> + 128 random bits: the capability that lets a task app reach the model through the interceptor.</p><hr><h3 id="inferenceurl" tabindex="-1">inferenceUrl <a class="header-anchor" href="#inferenceurl" aria-label="Permalink to &quot;inferenceUrl&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>inferenceUrl</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/interceptor/Interceptor.ts:64</p><p><code>\${baseUrl}/\${cid}/v1</code>, handed to the task app as the policy&#39;s <code>inference_url</code>.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/InterceptedRollout.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const InterceptedRollout = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  InterceptedRollout as default
};
