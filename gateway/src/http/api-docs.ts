// The API's reference: GET /api/openapi.json, the OpenAPI 3.1 document generated from the router
// (openapi/document.ts), and GET /api/docs, a readable page of it (Swagger UI, from swagger-ui-dist, served here:
// no outside script) where a reader may also try calls with their API key ("Authorize"). The account's API keys
// screen links to it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { AnyTRPCRouter } from '@trpc/server';
import express from 'express';
import { openApiDocument } from '../openapi/document.js';

export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PATH = '/api/docs';

const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Engram API reference</title>
<link rel="stylesheet" href="${API_DOCS_PATH}/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${API_DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${API_DOCS_PATH}/start.js"></script>
</body>
</html>
`;

// The page's own script (no inline script: the Content-Security-Policy allows only files of this origin).
const START = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#reference',
  deepLinking: true,
  tryItOutEnabled: false,
  persistAuthorization: false,
});
`;

export function apiDocsRoutes(router: AnyTRPCRouter, publicBaseUrl: string): express.Router {
  const routes = express.Router();
  let document: string | undefined;
  routes.get(OPENAPI_PATH, (_req, res) => {
    document ??= JSON.stringify(openApiDocument(router, publicBaseUrl));
    res.set('cache-control', 'public, max-age=300').type('application/json').send(document);
  });
  routes.get(API_DOCS_PATH, (_req, res) => {
    res.set('cache-control', 'public, max-age=300').type('text/html').send(PAGE);
  });
  routes.get(`${API_DOCS_PATH}/start.js`, (_req, res) => {
    res.set('cache-control', 'public, max-age=300').type('text/javascript').send(START);
  });
  const files = new Map<string, Buffer>();
  routes.get(`${API_DOCS_PATH}/:asset`, (req, res, next) => {
    const asset = ASSETS[req.params.asset ?? ''];
    if (!asset) return next();
    let bytes = files.get(asset.file);
    if (!bytes) {
      bytes = readFileSync(join(SWAGGER_UI, asset.file));
      files.set(asset.file, bytes);
    }
    res.set('cache-control', 'public, max-age=86400').type(asset.type).send(bytes);
  });
  return routes;
}
