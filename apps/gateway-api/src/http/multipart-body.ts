import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes } from '@nestjs/swagger';

/**
 * Declares a multipart/form-data request body in the OpenAPI document (file parts as binary strings,
 * text fields as strings), so generated clients and Swagger UI's "Try it out" can upload.
 */
export function MultipartBody(input: {
  files: Record<string, string>;
  fields?: Record<string, string>;
  required: readonly string[];
}): MethodDecorator {
  const properties: Record<string, { type: 'string'; format?: 'binary'; description: string }> = {};
  for (const [name, description] of Object.entries(input.files)) {
    properties[name] = { type: 'string', format: 'binary', description };
  }
  for (const [name, description] of Object.entries(input.fields ?? {})) {
    properties[name] = { type: 'string', description };
  }
  return applyDecorators(
    ApiConsumes('multipart/form-data'),
    ApiBody({ schema: { type: 'object', required: [...input.required], properties } }),
  );
}
