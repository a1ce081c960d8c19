-- Image occlusion cards (issue 45): a picture with shapes hiding its parts, one review item per group of shapes,
-- as Anki's Image Occlusion note type asks them.
-- AlterEnum
ALTER TYPE "card_type" ADD VALUE 'occlusion';
