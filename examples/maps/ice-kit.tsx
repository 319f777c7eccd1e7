<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="ice-kit" tilewidth="32" tileheight="32" tilecount="6" columns="6">
 <image source="ice-kit.png" width="192" height="32"/>
 <tile id="0">
  <properties>
   <property name="kind" value="wall"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="kind" value="rock"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="kind" value="ice"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="kind" value="snow"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="kind" value="free"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="light" type="bool" value="true"/>
  </properties>
 </tile>
</tileset>
