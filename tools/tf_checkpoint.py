"""Reads a TensorFlow 1 checkpoint (`model.ckpt.index` and `model.ckpt.data-00000-of-00001`)
into numpy arrays without TensorFlow, for the paper's own surrogates in EvoStone2's repository
(`TestBed/DeckSearch/resources/fixed_models/*/`), which tools.paper_surrogates compares with ours.

The format, from TensorFlow's documentation of its tensor bundles: the index is a LevelDB table
(uncompressed blocks of prefix-compressed key/value entries, a 48-byte footer that locates the
index block, which locates the data blocks); each key is a tensor's name and each value a
BundleEntryProto (dtype, shape, shard, offset, size); the data file holds the raw little-endian
tensors. Only what such a checkpoint of float32 tensors in one shard uses is read."""
from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

FOOTER_BYTES = 48
DT_FLOAT = 1


class TFCheckpointError(ValueError):
    """A file that is not a readable single-shard TF checkpoint of float32 tensors."""


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(data):
            raise TFCheckpointError("a varint runs past the end of its block")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def _entries(index: bytes, offset: int, size: int) -> list[tuple[bytes, bytes]]:
    """The key/value entries of one table block (keys are stored as a shared prefix + the rest)."""
    block = index[offset:offset + size]
    if size < 4 or len(block) != size:
        raise TFCheckpointError("a block lies outside the index file")
    restarts = struct.unpack("<I", block[-4:])[0]
    end = size - 4 - 4 * restarts
    at, key, out = 0, b"", []
    while at < end:
        shared, at = _varint(block, at)
        unshared, at = _varint(block, at)
        length, at = _varint(block, at)
        key = key[:shared] + block[at:at + unshared]
        at += unshared
        out.append((key, block[at:at + length]))
        at += length
    return out


def _fields(message: bytes) -> dict[int, list]:
    """A protobuf message's fields by number (varints as ints, length-delimited as bytes)."""
    at, fields = 0, {}
    while at < len(message):
        tag, at = _varint(message, at)
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            value, at = _varint(message, at)
        elif wire == 2:
            length, at = _varint(message, at)
            value, at = message[at:at + length], at + length
        elif wire == 5:
            value, at = message[at:at + 4], at + 4
        elif wire == 1:
            value, at = message[at:at + 8], at + 8
        else:
            raise TFCheckpointError(f"a bundle entry has protobuf wire type {wire}")
        fields.setdefault(number, []).append(value)
    return fields


def _shape(shape_proto: bytes) -> tuple[int, ...]:
    return tuple(_fields(dim).get(1, [0])[0] for dim in _fields(shape_proto).get(2, []))


def read_checkpoint(prefix: str | Path) -> dict[str, np.ndarray]:
    """Every tensor of the checkpoint `prefix` (the path without `.index`), by name."""
    index_path, data_path = Path(f"{prefix}.index"), Path(f"{prefix}.data-00000-of-00001")
    for path in (index_path, data_path):
        if not path.is_file():
            raise TFCheckpointError(f"{path}: no such file (a single-shard TF checkpoint has .index and "
                                  ".data-00000-of-00001 beside each other)")
    index, data = index_path.read_bytes(), data_path.read_bytes()
    if len(index) < FOOTER_BYTES:
        raise TFCheckpointError(f"{index_path}: {len(index)} bytes, too short for a checkpoint index")
    footer = index[-FOOTER_BYTES:]
    _, at = _varint(footer, 0)  # the metaindex block's offset and size: not needed
    _, at = _varint(footer, at)
    block_offset, at = _varint(footer, at)
    block_size, _ = _varint(footer, at)
    tensors = {}
    for _, handle in _entries(index, block_offset, block_size):
        offset, at = _varint(handle, 0)
        size, _ = _varint(handle, at)
        for key, value in _entries(index, offset, size):
            if not key:  # the bundle's header entry
                continue
            entry, name = _fields(value), key.decode()
            if entry.get(1, [DT_FLOAT])[0] != DT_FLOAT or entry.get(3, [0])[0] != 0:
                raise TFCheckpointError(f"{index_path}: tensor {name} is not float32 in the first shard")
            shape = _shape(entry[2][0]) if 2 in entry else ()
            start, length = entry.get(4, [0])[0], entry.get(5, [0])[0]
            if start + length > len(data) or length != 4 * int(np.prod(shape)):
                raise TFCheckpointError(f"{data_path}: tensor {name} {shape} does not fit the data file")
            tensors[name] = np.frombuffer(data, "<f4", count=length // 4, offset=start).reshape(shape)
    if not tensors:
        raise TFCheckpointError(f"{index_path}: no tensors")
    return tensors
