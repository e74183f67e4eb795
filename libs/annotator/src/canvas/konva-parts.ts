/*
 * The editor draws with a few Konva shapes only. Importing them one by one, with react-konva's core
 * entry, keeps Konva's other shapes and its filters out of the worker bundle ('react-konva' would
 * pull in all of 'konva'). Each shape module registers itself with Konva when imported.
 */
import 'konva/lib/shapes/Image';
import 'konva/lib/shapes/Label';
import 'konva/lib/shapes/Rect';
import 'konva/lib/shapes/Text';
import 'konva/lib/shapes/Transformer';

export { Image, Label, Layer, Rect, Stage, Tag, Text, Transformer } from 'react-konva/lib/ReactKonvaCore';
export { default as KonvaCore } from 'konva/lib/Core';
