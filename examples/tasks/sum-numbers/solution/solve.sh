#!/bin/sh
echo 200 > sum.txt
