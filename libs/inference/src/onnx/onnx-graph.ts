import { onnx } from 'onnx-proto';

/** A graph input or output: a tensor of `elemType` whose dimensions are sizes or named (symbolic) ones. */
export function valueInfo(name: string, elemType: number, dims: (number | string)[]): onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}
