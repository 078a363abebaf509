#!/bin/sh
echo ok > big.txt
